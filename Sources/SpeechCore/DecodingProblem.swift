import Foundation

/// A value of a closed set read from a file (a fault kind, a module kind, a split): an unknown value
/// fails to decode with the value given and the values allowed, in our words rather than
/// Foundation's ("unknown fault kind 'meteor' (expected one of: throw, stall, …)").
public protocol ClosedSetValue: RawRepresentable, CaseIterable, Decodable, Sendable where RawValue == String {
    /// What a value is called in a file's terms: "fault kind", "split".
    static var valueName: String { get }
}

extension ClosedSetValue {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.unknown(text))
        }
        self = value
    }

    /// The values a file may give, in declaration order.
    public static var allowedValues: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The message for a value that is not one of the set.
    public static func unknown(_ text: String) -> String {
        "unknown \(valueName) '\(text)' (expected one of: \(allowedValues))"
    }
}

/// Why a value read from a file could not be decoded, and where: the field's path in the file's
/// own terms (`faults[0].kind`) and the problem in words a user can act on (`expected a list, got
/// an object`), never Foundation's type names.
public struct DecodingProblem: Error, CustomStringConvertible, Sendable, Hashable {
    /// Keys and list positions from the top of the file to the field.
    public var path: [PathComponent]
    public var problem: String
    /// What went wrong, for readers that report it in their own terms.
    public var kind: Kind = .invalid

    public enum PathComponent: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public enum Kind: Sendable, Hashable {
        /// The field is absent, or null where a value is needed.
        case missing
        /// The field holds another kind of value (`found` nil: not known).
        case wrongType(expected: String, found: String?)
        /// Anything else: a value out of its set or range, malformed JSON.
        case invalid
    }

    public init(path: [PathComponent], problem: String, kind: Kind = .invalid) {
        self.path = path
        self.problem = problem
        self.kind = kind
    }

    /// Describes a decoding error; `json`, the document that was decoded (as `JSONSerialization`
    /// reads it), lets a wrong type say what the file has instead.
    public init(_ error: DecodingError, json: Any? = nil) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(path: Self.components(context.codingPath + [key]), problem: "missing", kind: .missing)
        case .typeMismatch(let type, let context):
            let path = Self.components(context.codingPath)
            let found = json.flatMap { Self.value(at: path, in: $0) }.map(Self.kind(of:))
            let expected = Self.expectation(type)
            self.init(
                path: path, problem: "expected \(expected)" + (found.map { ", got \($0)" } ?? ""),
                kind: .wrongType(expected: expected, found: found))
        case .valueNotFound(let type, let context):
            self.init(
                path: Self.components(context.codingPath), problem: "expected \(Self.expectation(type)), got null",
                kind: .missing)
        case .dataCorrupted(let context):
            let path = Self.components(context.codingPath)
            guard path.isEmpty, context.debugDescription.contains("not valid JSON") else {
                self.init(path: path, problem: context.debugDescription)
                return
            }
            // Foundation on Linux also says "not valid JSON", with no field, for a valid document
            // with a number its field cannot hold (2.5 for a whole number).
            self.init(
                path: [],
                problem: json == nil
                    ? "not valid JSON"
                    : "a number does not fit its field (a fraction or an out-of-range value where a whole number is expected)"
            )
        @unknown default:
            self.init(path: [], problem: "\(error)")
        }
    }

    /// Decodes `type` from JSON `data`, turning any decoding error into a problem with its field.
    /// Decodes `data`; with `strict`, a field the type does not read is an error at that field
    /// (``StrictlyDecoded``), for files people write by hand.
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, strict: Bool = false
    )
        throws(DecodingProblem) -> T
    {
        do {
            if strict { return try JSONDecoder().decode(StrictlyDecoded<T>.self, from: data).value }
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw DecodingProblem(
                error, json: try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
        } catch {
            throw DecodingProblem(path: [], problem: "\(error)")
        }
    }

    /// The field's path: `faults[0].kind`; empty for the document itself.
    public var field: String {
        var text = ""
        for component in path {
            switch component {
            case .key(let name): text += text.isEmpty ? name : ".\(name)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    public var description: String { path.isEmpty ? problem : "field '\(field)': \(problem)" }

    static func components(_ keys: [any CodingKey]) -> [PathComponent] {
        keys.map { key in key.intValue.map(PathComponent.index) ?? .key(key.stringValue) }
    }

    /// What a Swift type is in a JSON file's terms.
    static func expectation(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array<") || name.hasPrefix("Set<") { return "a list" }
        if name.hasPrefix("Dictionary<") { return "an object" }
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type:
            return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        default: return name
        }
    }

    /// What a JSON value (as `JSONSerialization` reads it) is, as a user would name it.
    public static func kind(of value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        case let number as NSNumber:
            return String(cString: number.objCType) == "c" ? "\(number.boolValue)" : "the number \(number)"
        default: return "\(type(of: value))"
        }
    }

    static func value(at path: [PathComponent], in json: Any) -> Any? {
        var current: Any = json
        for component in path {
            switch component {
            case .key(let name):
                guard let object = current as? [String: Any], let next = object[name] else { return nil }
                current = next
            case .index(let index):
                guard let list = current as? [Any], list.indices.contains(index) else { return nil }
                current = list[index]
            }
        }
        return current
    }
}
