import AudioIO
import Foundation
import Metrics
import TestSupport
import Testing

@testable import Corpus
@testable import Metrics

@Suite("Corpus recipes")
struct CorpusRecipeTests {
    @Test(arguments: [
        ("I have 3 dogs.", "i have three dogs"),
        ("Press 1 to mute, 2 to lock.", "press one to mute two to lock"),
        ("dial 500 or 600.", "dial five hundred or six hundred"),
        ("extension 1234 and password 4242", "extension one two three four and password four two four two"),
        ("a 28.8 kilobit modem", "a twenty eight point eight kilobit modem"),
        ("press * to pause, # to exit", "press star to pause pound to exit"),
        ("Call-Forward on No Answer.", "call forward on no answer"),
        ("A.M.", "a m"),
        ("If you'd like", "if you'd like"),
        ("at [@]", "at"),
        ("3D audio", "three d audio"),
        ("option (10", "option ten"),
        ("room 07", "room zero seven"),
        ("115", "one hundred fifteen"),
    ])
    func spokenForm(written: String, spoken: String) {
        #expect(SpokenForm.english(written) == spoken)
    }

    @Test func stageDirectionsAloneAreNotSpeech() {
        #expect(SpokenForm.english("[sound of monkeys screaming]") == nil)
        #expect(SpokenForm.english("...") == nil)
    }

    @Test func composedStringsHaveExactWordTimes() {
        let clips: [(word: String, samples: [Float])] = [
            ("one", [Float](repeating: 0.5, count: 800)), ("two", [Float](repeating: 0.5, count: 1600)),
        ]
        let c = CorpusSignals.compose(clips, gaps: [0.1], lead: 0.25, sampleRate: 16_000)
        #expect(c.samples.count == 4000 + 800 + 1600 + 1600 + 4000)
        #expect(c.words == [.init(word: "one", start: 0.25, end: 0.3), .init(word: "two", start: 0.4, end: 0.5)])
    }

    @Test func trimmingFindsTheWord() {
        var x = [Float](repeating: 0.0001, count: 16_000)
        for i in 4_000..<8_000 { x[i] = Float(sin(Double(i) * 0.3)) * 0.5 }
        let r = CorpusSignals.trimmedRange(x, sampleRate: 16_000, margin: 0)
        #expect(r == 4_000..<8_000)
    }

    @Test func noiseHitsTheRequestedSNRAndIsDeterministic() {
        let speech = (0..<32_000).map { Float(sin(Double($0) * 0.05)) * 0.3 }
        for snr in [20.0, 10.0, 5.0] {
            let noisy = CorpusSignals.addNoise(speech, sampleRate: 16_000, snr: snr, seed: 7)
            let noise = zip(noisy, speech).map { Double($0 - $1) }
            let noisePower = noise.reduce(0) { $0 + $1 * $1 } / Double(noise.count)
            let measured = 10 * log10(CorpusSignals.activePower(speech, sampleRate: 16_000) / noisePower)
            #expect(abs(measured - snr) < 0.2, "asked \(snr) dB, got \(measured)")
            #expect(noisy == CorpusSignals.addNoise(speech, sampleRate: 16_000, snr: snr, seed: 7))
        }
    }

    @Test func shippedRecipeLoadsAndKeepsEnrollmentAndTestVoicesApart() throws {
        let recipePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/recipe.json").path
        let recipe = try CorpusRecipe.load(path: recipePath)
        let enrollment = Set(
            recipe.synthetic.voices.filter { $0.split == .enrollment }.map { "\($0.synthesizer):\($0.voice)" })
        let test = Set(recipe.synthetic.voices.filter { $0.split == .test }.map { "\($0.synthesizer):\($0.voice)" })
        #expect(!enrollment.isEmpty && !test.isEmpty)
        #expect(enrollment.isDisjoint(with: test))
        // Different voices recorded from one person count as one speaker.
        let samePerson: [Set<String>] = [
            ["flite:kal", "flite:kal16", "festival:kal_diphone"],
            ["flite:slt", "festival:cmu_us_slt_arctic_hts"],
            ["flite:awb", "festival:cmu_us_awb_cg"],
            ["flite:rms", "festival:cmu_us_rms_cg"],
        ]
        for person in samePerson {
            #expect(person.isDisjoint(with: enrollment) || person.isDisjoint(with: test), "\(person) on both sides")
        }
    }

    @Test(arguments: [("espeak-ng", "en-us", "175"), ("flite", "slt", "1.0"), ("festival", "ked_diphone", "1.25")])
    func everySynthesizerOfTheRecipeSpeaks(synthesizer: String, voice: String, setting: String) throws {
        let recipePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/recipe.json").path
        let dir = try TemporaryDirectory()
        let builder = CorpusBuilder(
            recipe: try CorpusRecipe.load(path: recipePath), output: dir.url.path, log: { _ in })
        let wav = dir.url.appendingPathComponent("two.wav").path
        try builder.synthesize(
            text: "two", voice: .init(synthesizer: synthesizer, voice: voice, split: .test), setting: setting, to: wav)
        let (samples, rate) = try AudioFileReader.readMono(path: wav)
        let seconds = Double(samples.count) / rate
        #expect((0.2...1.5).contains(seconds), "\(synthesizer) \(voice): \(seconds) s")
        #expect(samples.map(abs).max()! > 0.05)
        #expect(throws: CorpusBuildError.self) {
            try builder.synthesize(
                text: "two", voice: .init(synthesizer: "sam", voice: "x", split: .test), setting: "1", to: wav)
        }
    }

    /// festival's Italian voices read Latin-1: given UTF-8, they say nothing for "sì", and the
    /// tier's error names the voice and the text.
    @Test func festivalsItalianVoicesReadLatin1() throws {
        let recipePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus/recipe.json").path
        var recipe = try CorpusRecipe.load(path: recipePath)
        let dir = try TemporaryDirectory()
        let builder = CorpusBuilder(recipe: recipe, output: dir.url.path, log: { _ in })
        let wav = dir.url.appendingPathComponent("si.wav").path
        var voice = CorpusRecipe.Voice(
            synthesizer: "festival", voice: "lp_diphone", split: .test, textEncoding: "latin1")
        try builder.synthesize(text: "sì", voice: voice, setting: "1.0", to: wav)
        #expect(try AudioFileReader.readMono(path: wav).samples.count > 1_600)
        voice.textEncoding = nil
        try? FileManager.default.removeItem(atPath: wav)
        try builder.synthesize(text: "sì", voice: voice, setting: "1.0", to: wav)
        #expect(throws: (any Error).self) { try AudioFileReader.readMono(path: wav) }

        recipe.syntheticLanguages.voices = recipe.syntheticLanguages.voices.filter { $0.voice == "lp_diphone" }
        recipe.syntheticLanguages.voices[0].textEncoding = nil
        recipe.syntheticLanguages.commands["it"] = ["sì"]
        let error = #expect(throws: CorpusBuildError.self) {
            try CorpusBuilder(recipe: recipe, output: dir.url.path, log: { _ in })
                .build(tiers: ["synthetic-commands-it"])
        }
        #expect(
            error?.description.hasPrefix("synthetic-commands-it: voice festival:lp_diphone could not say 'sì'") == true)
    }

    /// Each command is said once by each of the language's voices, tagged as commands.
    @Test func otherLanguagesCommandsComeFromTheirVoices() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var recipe = try CorpusRecipe.load(path: root.appendingPathComponent("Corpus/recipe.json").path)
        recipe.syntheticLanguages.commands["ru"] = ["да", "нет"]
        let folder = try TemporaryDirectory()
        let results = try CorpusBuilder(recipe: recipe, output: folder.url.path, log: { _ in })
            .build(tiers: ["synthetic-commands-ru"])
        #expect(results.map(\.utterances) == [2])
        let lines = try String(contentsOfFile: folder.path("synthetic-commands-ru/manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(Utterance.self, from: Data($0.utf8)) }
        #expect(lines.map(\.reference) == ["да", "нет"])
        #expect(lines.allSatisfy { $0.task == "commands" && $0.locale == "ru-RU" && $0.split == .test })
    }

    @Test func aLanguagesCommandsMustMatchTheEnglishOnes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Corpus/recipe.json").path, encoding: .utf8)
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "r.json",
            bytes: Array(
                text.replacingOccurrences(of: "\"spegni le luci\"", with: "").replacingOccurrences(
                    of: "\"accendi le luci\", ]", with: "\"accendi le luci\"]"
                ).utf8))
        let error = #expect(throws: CorpusBuildError.self) { try CorpusRecipe.load(path: path) }
        #expect(error?.description.contains("a language's commands not one per English command") == true)
    }

    @Test func badRecipeNamesTheProblem() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("r.json", bytes: Array(#"{"version": 1, "seed": 1}"#.utf8))
        let error = #expect(throws: CorpusBuildError.self) { try CorpusRecipe.load(path: path) }
        #expect(
            error?.description.contains("missing 'sampleRate'") == true
                || error?.description.contains("missing") == true)
        #expect(error?.description.hasPrefix(path) == true)
    }

    /// The joined tier is built like held-out strings (its own seed, the recipe's gaps and edges)
    /// from the same isolated recordings as `real-digits-en`, whose strings it does not repeat.
    @Test func joinedDigitStringsFollowTheirRecipe() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let recipe = try CorpusRecipe.load(path: root.appendingPathComponent("Corpus/recipe.json").path)
        let folder = try TemporaryDirectory()
        let results = try CorpusBuilder(recipe: recipe, output: folder.url.path, log: { _ in })
            .build(tiers: ["real-digits-en", "real-digits-en-joined"], jobs: 2)
        #expect(results.map(\.utterances) == [recipe.realDigits.strings, recipe.joinedDigits.strings])
        struct Line: Decodable {
            struct Word: Decodable { var word: String, start: Double, end: Double }
            var reference: String, duration: Double, words: [Word]
        }
        func lines(_ tier: String) throws -> [Line] {
            try String(contentsOfFile: folder.path("\(tier)/manifest.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }
        let joined = try lines("real-digits-en-joined"), j = recipe.joinedDigits
        for line in joined {
            let words = line.words
            #expect((j.minDigits...j.maxDigits).contains(words.count), "\(line.reference)")
            #expect(abs(words[0].start - j.edge) < 1e-6 && abs(line.duration - words.last!.end - j.edge) < 1e-3)
            for (a, b) in zip(words, words.dropFirst()) {
                #expect(b.start - a.end >= j.minGap - 1e-3 && b.start - a.end <= j.maxGap + 1e-3, "\(line.reference)")
            }
        }
        let earlier = Set(try lines("real-digits-en").map(\.reference))
        #expect(joined.filter { earlier.contains($0.reference) }.count < joined.count / 10)
    }

    /// Tiers built side by side: one whose sources are missing fails the build, naming them, only
    /// after the others are built.
    @Test func aFailingTierLosesNoOtherTier() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var recipe = try CorpusRecipe.load(path: root.appendingPathComponent("Corpus/recipe.json").path)
        recipe.syntheticLanguages.stringsPerLanguage = 2
        recipe.sources.asteriskSounds = "/nonexistent/asterisk"
        let folder = try TemporaryDirectory()
        var notes: [String] = []
        #expect(throws: (any Error).self) {
            try CorpusBuilder(recipe: recipe, output: folder.url.path, log: { notes.append($0) })
                .build(tiers: ["real-digits-en", "synthetic-digits-it"], jobs: 2)
        }
        #expect(FileManager.default.fileExists(atPath: folder.path("synthetic-digits-it/manifest.jsonl")))
        #expect(notes.contains { $0.hasPrefix("synthetic-digits-it: 2 utterances") })
    }

    /// The other languages' synthetic strings are the test split, dealt in turn to the language's
    /// voices, tagged with the real tier's locale, and say their language's digit words; a voice
    /// whose package is missing is left out, and a language with none is skipped naming it.
    @Test func otherLanguagesStringsComeFromTheirVoices() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var recipe = try CorpusRecipe.load(path: root.appendingPathComponent("Corpus/recipe.json").path)
        recipe.syntheticLanguages.stringsPerLanguage = 4
        recipe.syntheticLanguages.voices.append(
            .init(locale: "fr-CA", synthesizer: "festival", voice: "no_such_voice", package: "festvox-nope"))
        recipe.syntheticLanguages.voices.append(
            .init(locale: "ru-RU", synthesizer: "festival", voice: "no_such_voice", package: "festvox-nope"))
        let folder = try TemporaryDirectory()
        var notes: [String] = []
        let results = try CorpusBuilder(recipe: recipe, output: folder.url.path, log: { notes.append($0) })
            .build(tiers: ["synthetic-digits-ru"])
        #expect(results.map(\.utterances) == [4])
        #expect(notes.contains("synthetic-digits-ru: voice festival:no_such_voice left out (install festvox-nope)"))
        let lines = try String(contentsOfFile: folder.path("synthetic-digits-ru/manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(Utterance.self, from: Data($0.utf8)) }
        let digits = Set(SpokenForm.digitWords["ru"]!)
        for line in lines {
            #expect(line.split == .test && line.locale == "ru-RU" && line.speaker == "festival:msu_ru_nsh_clunits")
            #expect(
                line.reference.split(separator: " ").allSatisfy { digits.contains(String($0)) }, "\(line.reference)")
        }
        // Three rates of the one voice, in turn.
        #expect(lines.map { $0.id.split(separator: "-").dropLast().last! } == ["1.25", "1.0", "0.8", "1.25"])
        recipe.syntheticLanguages.voices.removeAll { $0.locale == "ru-RU" && $0.voice != "no_such_voice" }
        let skipped = try CorpusBuilder(recipe: recipe, output: folder.url.path, log: { _ in })
            .build(tiers: ["synthetic-digits-ru"])
        #expect(skipped.first?.skipped == "no voice installed (festvox-nope)")
    }
}
