import Foundation
import SpeechCore

/// The bound on backing engine configurations in use at once. Modules configured alike (same
/// engine and locale) share one; past `limit` distinct ones, starting analysis throws
/// `SFSpeechError.insufficientResources` unless the analyzer ignores resource limits.
///
/// The default limit is 4, or `SPEECH_HARNESS_MAX_ENGINE_INSTANCES`. Tests give their context its
/// own pool (`HarnessContext.resourcePool`).
@_spi(Harness) public final class ResourcePool: Sendable {
    public let limit: Int
    private let holders = Locked<[ObjectIdentifier: (keys: Set<String>, counted: Bool)]>([:])

    public init(limit: Int) { self.limit = limit }

    public static let shared = ResourcePool(
        limit: HarnessEnvironment.process.valueOrDefault(HarnessSettings.maximumEngineInstances))

    /// The running task's pool (`HarnessContext.resourcePool`).
    @available(*, deprecated, message: "read HarnessContext.current.resourcePool; set it on a HarnessContext")
    public static var current: ResourcePool { HarnessContext.current.resourcePool }

    /// Distinct configurations held by analyzers that respect the limit.
    public var inUse: Int {
        holders.withLock { Set($0.values.filter(\.counted).flatMap(\.keys)).count }
    }

    /// Records that `owner` uses `keys` (replacing what it held). Throws when that would exceed the limit.
    func acquire(_ keys: Set<String>, owner: ObjectIdentifier, ignoringLimits: Bool) throws(SFSpeechError) {
        try holders.withLock { (holders) throws(SFSpeechError) -> Void in
            if !ignoringLimits {
                let others = Set(holders.filter { $0.key != owner && $0.value.counted }.values.flatMap(\.keys))
                let total = others.union(keys)
                if total.count > limit {
                    throw SFSpeechError(
                        .insufficientResources,
                        "\(total.count) engine configurations would be in use; the limit is \(limit)")
                }
            }
            holders[owner] = (keys, !ignoringLimits)
        }
    }

    func release(owner: ObjectIdentifier) {
        _ = holders.withLock { $0.removeValue(forKey: owner) }
    }
}

/// Engine configurations kept loaded after use, per `SpeechAnalyzer.Options.ModelRetention`.
actor ModelRetentionCache {
    static let shared = ModelRetentionCache()

    private var retained: [String: SpeechAnalyzer.Options.ModelRetention] = [:]

    func used(_ keys: Set<String>, retention: SpeechAnalyzer.Options.ModelRetention) {
        for key in keys where retention != .whileInUse { retained[key] = retention }
    }

    func endRetention() { retained = [:] }

    var retainedKeys: Set<String> { Set(retained.keys) }
}

extension SpeechModels {
    /// Engine configurations currently kept loaded (harness extension, for tests and diagnostics).
    @_spi(Harness) public static var retainedConfigurations: Set<String> {
        get async { await ModelRetentionCache.shared.retainedKeys }
    }
}

@_spi(Harness) extension HarnessContext {
    private enum ResourcePoolKey: HarnessContextKey {
        static let defaultValue = ResourcePool.shared
    }

    /// The bound on engine configurations analyzers made under this context share.
    public var resourcePool: ResourcePool {
        get { self[ResourcePoolKey.self] }
        set { self[ResourcePoolKey.self] = newValue }
    }
}
