// The on-device language model the sample asks for a story title. There is none on Linux, so
// `isAvailable` is false and the sample keeps its own title, as on a device without Apple
// Intelligence.
@_exported import Foundation
@_exported import Observation

public final class SystemLanguageModel: Sendable {
    public static let `default` = SystemLanguageModel()
    public var isAvailable: Bool { false }
}

public struct LanguageModelError: Error, CustomStringConvertible {
    public var description: String { "no on-device language model on this platform" }
}

public final class LanguageModelSession {
    public struct Response<Content> {
        public var content: Content
    }

    public init(model: SystemLanguageModel = .default) {}

    public func respond(to prompt: String) async throws -> Response<String> {
        throw LanguageModelError()
    }
}
