import Foundation

/// Names engines and picks the one Apple-style code gets when it does not choose: set
/// `SPEECH_HARNESS_ENGINE` (an engine id such as `scripted`) or write `{"engine": "…"}` to
/// `.speech-harness.json` in the working directory; otherwise the first registered engine that has
/// assets for the locale. Tests choose programmatically with ``HarnessContext/engine``.
///
/// The registry itself knows no engine: ``shared`` is filled by the program's composition point
/// (the `HarnessComposition` module, which the `Speech`, `SpeechHarnessTesting` and command-line
/// products link) the first time it is read, so every program sees the same engine ids.
public final class EngineRegistry: Sendable {
    public typealias Factory = @Sendable () throws -> any RecognitionEngine

    public struct Entry: Sendable {
        public var id: String
        public var summary: String
        /// Lower is preferred when no engine is named.
        public var preference: Int
        public var make: Factory
        /// Makes the engine with the settings its name lists in brackets (`whisper[base,beam5]`);
        /// nil when the engine takes none.
        public var configure: (@Sendable (_ settings: [String]) throws -> any RecognitionEngine)?
        /// Configurations worth naming beside the engine (`whisper[base]`: another model): listed by
        /// `speech-harness engines`, and asked which locales they support and have installed.
        public var variants: [String]

        public init(
            id: String, summary: String, preference: Int, make: @escaping Factory,
            configure: (@Sendable (_ settings: [String]) throws -> any RecognitionEngine)? = nil,
            variants: [String] = []
        ) {
            self.id = id
            self.summary = summary
            self.preference = preference
            self.make = make
            self.configure = configure
            self.variants = variants
        }
    }

    /// Engines made from an argument in their id: `replay:DIR` is the family `replay:` given `DIR`.
    public struct Family: Sendable {
        /// What ids of the family start with, e.g. `replay:`.
        public var prefix: String
        /// How the family is written in listings, e.g. `replay:DIR`.
        public var pattern: String
        public var summary: String
        public var make: @Sendable (_ argument: String) throws -> any RecognitionEngine

        public init(
            prefix: String, pattern: String, summary: String,
            make: @escaping @Sendable (_ argument: String) throws -> any RecognitionEngine
        ) {
            self.prefix = prefix
            self.pattern = pattern
            self.summary = summary
            self.make = make
        }
    }

    private let entries = Locked<[String: Entry]>([:])
    private let families = Locked<[Family]>([])
    private let isProgramRegistry: Bool

    /// An empty registry (for tests that want only their own engines).
    public convenience init() { self.init(isProgramRegistry: false) }

    private init(isProgramRegistry: Bool) { self.isProgramRegistry = isProgramRegistry }

    /// The program's registry: every engine the composition point registers, and any added later.
    public static let shared = EngineRegistry(isProgramRegistry: true)

    /// Adds or replaces the engine `entry.id`.
    public func register(_ entry: Entry) {
        entries.withLock { $0[entry.id] = entry }
    }

    /// Adds an engine family; its ids are never chosen when no engine is named.
    public func register(_ family: Family) {
        families.withLock { list in
            list.removeAll { $0.prefix == family.prefix }
            list.append(family)
        }
    }

    /// The families, by prefix.
    public var engineFamilies: [Family] {
        composeProgram()
        return families.withLock { $0.sorted { $0.prefix < $1.prefix } }
    }

    /// Every id, most preferred first.
    public var ids: [String] {
        composeProgram()
        return entries.withLock {
            $0.values.sorted { ($0.preference, $0.id) < ($1.preference, $1.id) }.map(\.id)
        }
    }

    public func entry(_ id: String) -> Entry? {
        composeProgram()
        return entries.withLock { $0[id] }
    }

    private func composeProgram() {
        if isProgramRegistry { _ = ProgramComposition.load() }
    }

    /// Whether `id` names a registered engine, one with settings in brackets (`whisper[base]`; the
    /// settings are checked when it is made), or a member of a family (`replay:DIR`).
    public func knows(_ id: String) -> Bool {
        entry(id) != nil || entry(EngineName.id(of: id))?.configure != nil
            || engineFamilies.contains { id.hasPrefix($0.prefix) && id.count > $0.prefix.count }
    }

    /// Every registered engine's variants (`whisper[base]`), in the order of ``ids``.
    public var variants: [String] { ids.flatMap { entry($0)?.variants ?? [] } }

    /// Every id and family pattern, for messages listing what is known.
    public var knownNames: [String] { ids + engineFamilies.map(\.pattern) }

    /// ``make(_:)`` under `context`: the factory reads its settings (the environment's, the
    /// command line's Whisper options) from it.
    public func make(_ id: String, in context: HarnessContext) throws -> any RecognitionEngine {
        try HarnessContext.$current.withValue(context) { try make(id) }
    }

    /// A new instance of the engine called `id`, which may list settings in brackets (`whisper[base]`),
    /// made with the current context's settings.
    public func make(_ id: String) throws -> any RecognitionEngine {
        if let entry = entry(id) { return try entry.make() }
        let base = EngineName.id(of: id)
        if base != id, let entry = entry(base) {
            guard id.hasSuffix("]"), !EngineName.settings(of: id).isEmpty else {
                throw EngineError.invalidSetting(
                    engine: base, setting: String(id.dropFirst(base.count)),
                    reason: "settings are written in brackets after the id, separated by commas: \(base)[a,b]")
            }
            guard let configure = entry.configure else {
                throw EngineError.invalidSetting(
                    engine: base, setting: String(id.dropFirst(base.count)), reason: "this engine takes no settings")
            }
            return try configure(EngineName.settings(of: id))
        }
        if let family = engineFamilies.first(where: { id.hasPrefix($0.prefix) && id.count > $0.prefix.count }) {
            return try family.make(String(id.dropFirst(family.prefix.count)))
        }
        throw EngineError.unknownEngine(id, known: knownNames)
    }

    /// The engine named by the environment or configuration file, if any. A configuration file
    /// that cannot be read as `{"engine": "<id>"}` is an error naming the file and the field.
    public static func configuredEngineID(
        environment: [String: String] = HarnessContext.current.environment.variables,
        directory: String = FileManager.default.currentDirectoryPath
    ) throws(EngineError) -> String? {
        if let id = HarnessSettings.engine.text(in: environment) { return id }
        do {
            return try ConfigurationFile.load(directory: directory)?.values[HarnessSettings.engine.variable]
        } catch {
            throw .invalidConfiguration(path: error.path, reason: error.problem)
        }
    }

    /// The engine to use for `locale`: the override, else the configured one, else the preferred
    /// registered engine that has assets for the locale.
    public func defaultEngine(for locale: String) throws -> any RecognitionEngine {
        let context = HarnessContext.current
        if let engine = context.engine { return engine }
        if let id = try Self.configuredEngineID(environment: context.environment.variables) { return try make(id) }
        for id in ids {
            if let engine = try? make(id), engine.isInstalled(locale: locale) { return engine }
        }
        throw EngineError.unsupportedLocale(engine: "any", locale: locale)
    }
}

/// Programmatic engine choice, now ``HarnessContext/engine``.
public enum EngineSelection {
    @available(*, deprecated, message: "set HarnessContext.engine and run under HarnessContext.$current")
    public static var override: (any RecognitionEngine)? { HarnessContext.current.engine }
}
