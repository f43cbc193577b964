import Foundation
import SpeechCore
@_spi(Harness) import SpeechReference

/// Something that adds itself to custom language model data (phrase counts, pronunciations,
/// generators).
public protocol DataInsertable {
    func insert(data: SFCustomLanguageModelData)
}

/// Something that adds templates to a template generator.
public protocol TemplateInsertable {
    func insert(generator: SFCustomLanguageModelData.TemplatePhraseCountGenerator)
}

/// Training data for a custom language model, built in code and exported to a file that
/// `SFSpeechLanguageModel.prepareCustomLanguageModel` compiles. Apple's export format is
/// private; here it is JSON (`CustomLanguageModelExport`), read back by the same calls.
public final class SFCustomLanguageModelData: @unchecked Sendable {
    public let locale: Locale
    public let identifier: String
    public let version: String
    private let contents = Locked((phrases: [PhraseCount](), pronunciations: [CustomPronunciation]()))

    public init(locale: Locale, identifier: String, version: String) {
        self.locale = locale
        self.identifier = identifier
        self.version = version
    }

    public convenience init(
        locale: Locale, identifier: String, version: String, @DataInsertableBuilder builder: () -> any DataInsertable
    ) {
        self.init(locale: locale, identifier: identifier, version: version)
        builder().insert(data: self)
    }

    public func insert(phraseCount: PhraseCount) { contents.withLock { $0.phrases.append(phraseCount) } }
    public func insert(term: CustomPronunciation) { contents.withLock { $0.pronunciations.append(term) } }
    public func insert(phraseCountGenerator: PhraseCountGenerator) {
        for phrase in phraseCountGenerator.phraseCounts() { insert(phraseCount: phrase) }
    }

    /// The phrases inserted so far, in order.
    public var phraseCounts: [PhraseCount] { contents.withLock { $0.phrases } }
    public var pronunciations: [CustomPronunciation] { contents.withLock { $0.pronunciations } }

    /// X-SAMPA-style phonemes the pronunciations may use (those of US English).
    public static func supportedPhonemes(locale: Locale) -> [String] {
        [
            "@", "@`", "A", "E", "I", "O", "OI", "U", "V", "aI", "aU", "b", "d", "dZ", "eI", "f", "g", "h", "i", "j",
            "k", "l", "m", "n",
            "N", "oU", "p", "r", "s", "S", "t", "tS", "T", "D", "u", "v", "w", "z", "Z", "{", "3`",
        ]
    }

    /// Writes the data to `path` (a real file; errors name it).
    public func export(to path: URL) async throws {
        let (phrases, pronunciations) = contents.withLock { ($0.phrases, $0.pronunciations) }
        let file = CustomLanguageModelExport(
            locale: locale.identifier, identifier: identifier, version: version,
            phraseCounts: phrases.map { CustomPhrase(text: $0.phrase, count: $0.count) },
            pronunciations: pronunciations.map { .init(grapheme: $0.grapheme, phonemes: $0.phonemes) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { try encoder.encode(file).write(to: path) } catch {
            throw SFSpeechLanguageModel.ModelError.unwritable(path: path.path, reason: "\(error)")
        }
    }

    /// A phrase and how often it is expected.
    public struct PhraseCount: DataInsertable, Codable, Sendable, Hashable, CustomStringConvertible {
        public let phrase: String
        public let count: Int
        public init(phrase: String, count: Int) {
            self.phrase = phrase
            self.count = count
        }
        public func insert(data: SFCustomLanguageModelData) { data.insert(phraseCount: self) }
        public var description: String { "\(phrase) (\(count))" }
    }

    /// A word and how it is said.
    public struct CustomPronunciation: DataInsertable, Codable, Sendable, Hashable {
        public let grapheme: String
        public let phonemes: [String]
        public init(grapheme: String, phonemes: [String]) {
            self.grapheme = grapheme
            self.phonemes = phonemes
        }
        public func insert(data: SFCustomLanguageModelData) { data.insert(term: self) }
    }

    /// Makes phrase counts (subclasses override `phraseCounts()`).
    open class PhraseCountGenerator: DataInsertable, @unchecked Sendable {
        public init() {}
        open func phraseCounts() -> [PhraseCount] { [] }
        public func insert(data: SFCustomLanguageModelData) { data.insert(phraseCountGenerator: self) }
    }

    /// Phrases from templates whose `<class>` tokens take each of the class's values.
    public final class TemplatePhraseCountGenerator: PhraseCountGenerator, @unchecked Sendable {
        private var classes: [String: [String]] = [:]
        private var templates: [Template] = []

        public override init() {}

        public func define(className: String, values: [String]) { classes[className] = values }
        public func insert(template: String, count: Int) { templates.append(Template(template, count: count)) }

        /// Every expansion of every template; a template's count is shared evenly among its
        /// expansions (at least 1 each).
        public override func phraseCounts() -> [PhraseCount] {
            templates.flatMap { template -> [PhraseCount] in
                let phrases = expand(template.body)
                let each = max(1, template.count / max(1, phrases.count))
                return phrases.map { PhraseCount(phrase: $0, count: each) }
            }
        }

        private func expand(_ body: String) -> [String] {
            guard let open = body.firstIndex(of: "<"), let close = body[open...].firstIndex(of: ">") else {
                return [body]
            }
            let name = String(body[body.index(after: open)..<close])
            guard let values = classes[name] else { return [body] }
            let head = String(body[..<open]), tail = String(body[body.index(after: close)...])
            return values.flatMap { value in expand(head + value + tail) }
        }

        public struct Template: TemplateInsertable, Codable, Sendable, Hashable {
            public let body: String
            public let count: Int
            public init(_ body: String, count: Int) {
                self.body = body
                self.count = count
            }
            public func insert(generator: TemplatePhraseCountGenerator) {
                generator.insert(template: body, count: count)
            }
        }
    }

    /// Templates over classes, written with the template builder.
    public struct PhraseCountsFromTemplates: DataInsertable {
        let classes: [String: [String]]
        let templates: any TemplateInsertable
        public init(classes: [String: [String]], @TemplateInsertableBuilder builder: () -> any TemplateInsertable) {
            self.classes = classes
            self.templates = builder()
        }
        public func insert(data: SFCustomLanguageModelData) {
            let generator = TemplatePhraseCountGenerator()
            for (name, values) in classes { generator.define(className: name, values: values) }
            templates.insert(generator: generator)
            data.insert(phraseCountGenerator: generator)
        }
    }

    /// Several templates as one.
    public struct CompoundTemplate: TemplateInsertable {
        let components: [any TemplateInsertable]
        public init(_ components: [any TemplateInsertable]) { self.components = components }
        public func insert(generator: TemplatePhraseCountGenerator) {
            components.forEach { $0.insert(generator: generator) }
        }
    }

    struct DataList: DataInsertable {
        let items: [any DataInsertable]
        func insert(data: SFCustomLanguageModelData) { items.forEach { $0.insert(data: data) } }
    }

    @resultBuilder
    public enum DataInsertableBuilder {
        public static func buildBlock(_ components: any DataInsertable...) -> any DataInsertable {
            DataList(items: components)
        }
        public static func buildExpression(_ expression: any DataInsertable) -> any DataInsertable { expression }
        public static func buildArray(_ components: [any DataInsertable]) -> any DataInsertable {
            DataList(items: components)
        }
        public static func buildOptional(_ component: (any DataInsertable)?) -> any DataInsertable {
            DataList(items: component.map { [$0] } ?? [])
        }
        public static func buildEither(first component: any DataInsertable) -> any DataInsertable { component }
        public static func buildEither(second component: any DataInsertable) -> any DataInsertable { component }
    }

    @resultBuilder
    public enum TemplateInsertableBuilder {
        public static func buildBlock(_ components: any TemplateInsertable...) -> any TemplateInsertable {
            CompoundTemplate(components)
        }
        public static func buildExpression(_ expression: any TemplateInsertable) -> any TemplateInsertable {
            expression
        }
        public static func buildArray(_ components: [any TemplateInsertable]) -> any TemplateInsertable {
            CompoundTemplate(components)
        }
        public static func buildOptional(_ component: (any TemplateInsertable)?) -> any TemplateInsertable {
            CompoundTemplate(component.map { [$0] } ?? [])
        }
        public static func buildEither(first component: any TemplateInsertable) -> any TemplateInsertable { component }
        public static func buildEither(second component: any TemplateInsertable) -> any TemplateInsertable { component }
    }
}
