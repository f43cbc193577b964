// The few SwiftUI names the sample's model and transcription files use, so they compile on Linux
// unchanged: a binding, colours, and the foreground colour attribute of attributed text. Nothing
// here draws; the harness's driver stands in for the views.
@_exported import Foundation
@_exported import Observation

/// A value read and written through closures, as the views hand the story to the transcriber.
@dynamicMemberLookup
public struct Binding<Value> {
    private let read: () -> Value
    private let write: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        read = get
        write = set
    }

    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    public subscript<Member>(dynamicMember path: WritableKeyPath<Value, Member>) -> Binding<Member> {
        Binding<Member>(
            get: { read()[keyPath: path] },
            set: { member in
                var value = read()
                value[keyPath: path] = member
                write(value)
            })
    }
}

extension Binding: @unchecked Sendable {}

/// A colour, kept as its components.
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double = 1

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public func opacity(_ opacity: Double) -> Color {
        var copy = self
        copy.alpha = opacity
        return copy
    }

    public static let purple = Color(red: 0.69, green: 0.32, blue: 0.87)
    public static let mint = Color(red: 0, green: 0.78, blue: 0.75)
}

/// `text.foregroundColor = …` on an `AttributedString`.
public enum ForegroundColorAttribute: AttributedStringKey {
    public typealias Value = Color
    public static let name = "SwiftUI.ForegroundColor"
}

public enum BackgroundColorAttribute: AttributedStringKey {
    public typealias Value = Color
    public static let name = "SwiftUI.BackgroundColor"
}

extension AttributeScopes {
    public struct SwiftUIAttributes: AttributeScope {
        public let foregroundColor: ForegroundColorAttribute
        public let backgroundColor: BackgroundColorAttribute
        public let foundation: FoundationAttributes
    }

    public var swiftUI: SwiftUIAttributes.Type { SwiftUIAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.SwiftUIAttributes, T>) -> T
    {
        self[T.self]
    }
}
