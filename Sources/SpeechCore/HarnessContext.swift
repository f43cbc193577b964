/// Everything that configures the harness's libraries for one run, in one value: the settings'
/// environment, the engine catalog and the engine chosen in code, the asset store, the device's
/// clock, and what the modules above add (the simulated device and its permissions, the resource
/// pool, the Whisper settings the command line chose, a planted fault), each under a typed key.
///
/// Front doors make it: a program starts from ``program`` (the environment with
/// `.speech-harness.json`, the engines the composition point registers); the command line and a
/// scenario's `device` change a copy. Code that takes parameters is handed the value; only
/// Apple-shaped API, which has no place for a parameter, reads ``current``, the one task-local of
/// configuration. A test overrides everything through it:
///
///     var context = HarnessContext.current
///     context.engine = try ScriptedEngine(script: script)
///     try await HarnessContext.$current.withValue(context) { … }
public struct HarnessContext: Sendable {
    /// The settings' variables (and the configuration file's problem, if it could not be read).
    public var environment: HarnessEnvironment
    /// The engines by id; the program's are the ones its composition point registers.
    public var engines: EngineRegistry
    /// The engine Apple-style modules get, in place of the configured or preferred one.
    public var engine: (any RecognitionEngine)?
    /// Where engine assets are installed and locales reserved.
    public var assets: AssetStore
    /// The clock the device's timed conditions (a slow download) run on: a `VirtualClock` or a
    /// clock that skips its sleeps in tests.
    public var clock: any Clock<Duration>
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init(
        environment: HarnessEnvironment, engines: EngineRegistry = .shared, engine: (any RecognitionEngine)? = nil,
        assets: AssetStore = .standard, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.environment = environment
        self.engines = engines
        self.engine = engine
        self.assets = assets
        self.clock = clock
    }

    /// The program's context: the process's environment with `.speech-harness.json` beneath it,
    /// the composed engines, the standard asset store and the continuous clock.
    public static let program = HarnessContext(environment: .process)

    /// The context of the running task: ``program`` unless a front door or a test set another.
    @TaskLocal public static var current: HarnessContext = .program

    /// The value a module above the core keeps under `key`; the key's default when none was set.
    public subscript<Key: HarnessContextKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)].flatMap { $0 as? Key.Value } ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// A copy with `keyPath` set to `value`.
    public func with<Value>(_ keyPath: WritableKeyPath<HarnessContext, Value>, _ value: Value) -> HarnessContext {
        var copy = self
        copy[keyPath: keyPath] = value
        return copy
    }
}

/// A part of ``HarnessContext`` that a module above the core declares, with its value's type and
/// the value a context holds until one is set. The module adds a property to the context that
/// reads and writes `self[Key.self]`, so callers never see the key.
public protocol HarnessContextKey {
    associatedtype Value: Sendable
    static var defaultValue: Value { get }
}
