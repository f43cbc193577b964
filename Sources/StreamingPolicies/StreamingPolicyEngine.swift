import Foundation
import SpeechCore

/// A Whisper-style streaming policy: when to decode again and what to commit. Its parameters are
/// part of the engine's name.
public protocol StreamingPolicy: Sendable, Hashable {
    /// The default policy (the reference implementation's defaults).
    init()
    /// What the engine's id adds to the base engine's when none is given, e.g. `+local-agreement`.
    static var idSuffix: String { get }
    /// The parameters as they appear in the engine's name, e.g. `la2`, `chunk1s`.
    var nameSettings: [String] { get }
    /// A stream under this policy over fresh sessions of `base` made with `configuration`.
    func makeSession(base: any RecognitionEngine, configuration: EngineSessionConfiguration) -> any RecognitionSession
    /// What the policy lacks to run a session (a VAC policy without its detector); nil when nothing.
    var missingPart: String? { get }
}

extension StreamingPolicy {
    public var missingPart: String? { nil }
}

/// Any engine run under a streaming policy: the base engine's assets and locales, its capabilities
/// with partial results (the policy gives them), its sessions without; in the name, the policy's
/// parameters and then the base engine's settings.
public struct StreamingPolicyEngine<Policy: StreamingPolicy>: EngineAdapter {
    public let base: any RecognitionEngine
    public let policy: Policy
    public let id: String
    public let capabilities: EngineCapabilities

    public init(base: any RecognitionEngine, policy: Policy = Policy(), id: String? = nil) {
        self.base = base
        self.policy = policy
        self.id = id ?? base.id + Policy.idSuffix
        var capabilities = base.capabilities
        capabilities.partialResults = true
        self.capabilities = capabilities
    }

    public func replacingBase(_ base: any RecognitionEngine) -> Self { Self(base: base, policy: policy, id: id) }

    public var name: String {
        EngineName.make(id: id, settings: policy.nameSettings + EngineName.settings(of: base.name))
    }

    public func isInstalled(locale: String) -> Bool { base.isInstalled(locale: locale) }
    public func enrolledSpeakers(locale: String) -> Set<String>? { base.enrolledSpeakers(locale: locale) }
    public func assetPackage(for locale: String) -> AssetPackage? { base.assetPackage(for: locale) }

    /// A locale the base engine cannot do is an error, and so is a policy missing a part, named by
    /// this engine's id; the base's sessions report no partials.
    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        if let missing = policy.missingPart { throw EngineError.failed(engine: id, reason: missing) }
        guard base.supports(locale: configuration.locale) else {
            throw UnsupportedLocale(engine: id, locale: configuration.locale)
        }
        var inner = configuration
        inner.reportsPartialResults = false
        return policy.makeSession(base: base, configuration: inner)
    }
}
