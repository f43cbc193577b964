import Foundation
import TestSupport
import Testing

@testable import AudioIO
@testable import Corpus

@Suite("Manifest readers")
struct ManifestReaderTests {
    func tone(_ dir: TemporaryDirectory, _ name: String, seconds: Double = 1, rate: Double = 16_000) throws -> String {
        let path = dir.path(name)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 300, sampleRate: rate, seconds: seconds), sampleRate: rate, to: path)
        return path
    }

    @Test func jsonLinesReadsEveryFieldAndReportsEveryBadLine() throws {
        let dir = try TemporaryDirectory()
        let manifest = """
            {"id":"a","audio":"a.wav","reference":"one two","locale":"en-US","speaker":"s1","task":"digits","duration":1.0,"tier":"t","split":"test","words":[{"word":"one","start":0.1,"end":0.4},{"word":"two","start":0.5,"end":0.9}]}
            {"id":"b","audio":"b.wav","reference":"three","locale":"en-US","duration":1.0}
            {"id":"c", "audio": "c.wav"
            {"id":"d","audio":"d.wav","reference":"","locale":"en-US","duration":1.0}
            {"id":"a","audio":"a2.wav","reference":"x","locale":"en-US","duration":1.0}
            {"id":"e","audio":"e.wav","reference":"x","locale":"en-US","duration":"long"}
            ["not", "an", "object"]

            {"id":"f","audio":"f.wav","reference":"bad\\u0007bell","locale":"en-US","duration":1.0}
            {"id":"g","audio":"g.wav","reference":"x","locale":"en-US","duration":1.0,"split":"train"}
            {"id":"h","audio":"h.wav","reference":"x","locale":"en-US","duration":1.0,"words":[{"word":"x","start":0.5,"end":0.2}]}
            {"id":"i","audio":"i.wav","reference":"x","duration":1.0}
            {"id":"j","audio":"j.wav","reference":"x","locale":"en-US","duration":true}
            """
        let path = try dir.write("m.jsonl", bytes: Array(manifest.utf8))
        let load = ManifestReader.load(path: path)
        #expect(load.utterances.map(\.id) == ["a", "b", "i"])
        #expect(load.lines == [1, 2, 12])
        #expect(load.utterances[2].locale == ManifestReader.defaultLocale)
        let a = load.utterances[0]
        #expect(a.words?.count == 2 && a.words?[1].end == 0.9)
        #expect(a.split == .test && a.tier == "t" && a.speaker == "s1")
        #expect(load.utterances[1].speaker == "unknown")
        let byLine = Dictionary(uniqueKeysWithValues: load.issues.map { ($0.line, $0.problem) })
        #expect(byLine.keys.sorted() == [3, 4, 5, 6, 7, 9, 10, 11, 13])
        if case .malformedJSON? = byLine[3] {} else { Issue.record("line 3: \(String(describing: byLine[3]))") }
        #expect(byLine[4] == .emptyReference)
        #expect(byLine[5] == .duplicateID("a", firstLine: 1))
        #expect(byLine[6] == .wrongType(field: "duration", expected: "a number", found: "a string"))
        if case .invalidText? = byLine[9] {} else { Issue.record("line 9: \(String(describing: byLine[9]))") }
        if case .invalidValue(field: "words[0]", _)? = byLine[11] {} else { Issue.record("line 11") }
        #expect(byLine[13] == .wrongType(field: "duration", expected: "a number", found: "true"))
        #expect(
            load.issues.first { $0.line == 10 }?.description
                == "\(path):10: [g] field 'split': unknown split 'train' (expected one of: enrollment, test)")
        #expect(
            load.issues.first { $0.line == 6 }?.description
                == "\(path):6: [e] field 'duration': expected a number, got a string")
        #expect(load.issues.allSatisfy { $0.description.hasPrefix(path + ":") })
    }

    @Test func minimalLinesAsPeopleWriteThem() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "a.wav", seconds: 1.5)
        let manifest = """
            {"id":"a","audio":"a.wav","reference":"one two"}
            {"id":"b","audio":"a.wav","text":"three"}
            {"id":"c","audio":"a.wav","transcript":"four","locale":"fr-FR"}
            {"id":"d","audio":"a.wav","reference":"five","duration":1.6}
            {"id":"e","audio":"a.wav","reference":"six","duration":0}
            {"id":"f","audio":"a.wav"}
            """
        let path = try dir.write("m.jsonl", bytes: Array(manifest.utf8))
        let checked = ManifestReader.load(path: path, options: ManifestOptions(locale: "en-GB"))
        #expect(checked.utterances.map(\.id) == ["a", "b", "c", "d"])
        #expect(checked.utterances.map(\.reference) == ["one two", "three", "four", "five"])
        #expect(checked.utterances.map(\.locale) == ["en-GB", "en-GB", "fr-FR", "en-GB"])
        // Durations come from the audio; a stated one that is off by more than 50 ms is a warning.
        #expect(checked.utterances.allSatisfy { $0.duration == 1.5 })
        #expect(checked.warnings.map(\.line) == [4])
        #expect(
            checked.warnings.first?.description.contains("duration 1.6 s in the manifest, 1.5 s in the audio") == true)
        #expect(checked.issues.map(\.line) == [5, 6])
        #expect(
            checked.issues.map(\.problem) == [
                .invalidValue(field: "duration", reason: "must be a positive number of seconds"),
                .missingField("reference"),
            ])
    }

    @Test func kaldiAndNeMoTakeAbsolutePaths() throws {
        let audioDir = try TemporaryDirectory(), dataDir = try TemporaryDirectory()
        let absolute = try tone(audioDir, "x.wav")
        try dataDir.write("wav.scp", bytes: Array("x \(absolute)\n".utf8))
        try dataDir.write("text", bytes: Array("x hello\n".utf8))
        let kaldi = ManifestReader.load(path: dataDir.url.path, options: ManifestOptions())
        #expect(kaldi.issues.isEmpty && kaldi.utterances.map(\.id) == ["x"])
        let nemo = try dataDir.write(
            "nemo.json", bytes: Array(#"{"audio_filepath":"\#(absolute)","text":"hi","duration":1.0}"#.utf8))
        #expect(ManifestReader.load(path: nemo, options: ManifestOptions()).utterances.count == 1)
        // Our own format keeps its audio beside it unless told otherwise.
        let own = try dataDir.write(
            "own.jsonl", bytes: Array(#"{"id":"x","audio":"\#(absolute)","reference":"hi"}"#.utf8))
        #expect(
            ManifestReader.load(path: own, options: ManifestOptions()).issues.map(\.problem) == [
                .pathOutsideRoot(absolute)
            ])
        #expect(ManifestReader.load(path: own, options: ManifestOptions(allowOutsideRoot: true)).utterances.count == 1)
        // An explicit corpus root holds every format, through '..' and symbolic links too.
        let confined = ManifestOptions(corpusRoot: dataDir.url.path)
        #expect(
            ManifestReader.load(path: dataDir.url.path, options: confined).issues.map(\.problem) == [
                .pathOutsideRoot(absolute)
            ])
        try FileManager.default.createSymbolicLink(atPath: dataDir.path("link.wav"), withDestinationPath: absolute)
        try dataDir.write("wav.scp", bytes: Array("x link.wav\n".utf8))
        #expect(
            ManifestReader.load(path: dataDir.url.path, options: confined).issues.map(\.problem) == [
                .pathOutsideRoot("link.wav")
            ])
        #expect(ManifestReader.load(path: dataDir.url.path, options: ManifestOptions()).utterances.count == 1)
    }

    @Test func kaldiPipelinesRunOnlyWhenAllowed() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "a.wav", seconds: 0.5)
        try dir.write("wav.scp", bytes: Array("a cat a.wav |\nb echo broken >&2; exit 3 |\nc a.wav\n".utf8))
        try dir.write("text", bytes: Array("a one\nb two\nc three\n".utf8))
        let refused = ManifestReader.load(path: dir.url.path, options: ManifestOptions())
        #expect(refused.utterances.map(\.id) == ["c"])
        #expect(refused.issues.map(\.line) == [1, 2])
        #expect(refused.issues.first?.description.contains("--allow-commands") == true, "\(refused.issues)")
        let scratch = try TemporaryDirectory()
        let allowed = ManifestReader.load(
            path: dir.url.path, options: ManifestOptions(commands: PipedAudio(directory: scratch.url.path)))
        #expect(allowed.utterances.map(\.id) == ["a", "c"])
        #expect(allowed.utterances.first?.duration == 0.5)
        let failure = allowed.issues.first { $0.line == 2 }?.description ?? ""
        #expect(failure.contains("status 3") && failure.contains("stderr: broken"), "\(allowed.issues)")
    }

    @Test func aPipelinePastItsTimeoutIsStoppedWithItsChildren() throws {
        let dir = try TemporaryDirectory(), scratch = try TemporaryDirectory()
        let runner = PipedAudio(timeout: 0.3, directory: scratch.url.path)
        #expect(throws: PipedAudio.Failure.self) { try runner.materialize("sleep 30.4242 | cat", in: dir.url.path) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        check.arguments = ["-f", "sleep 30.4242"]
        check.standardOutput = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 1, "the pipeline's sleep is still running")
    }

    @Test func audioFolderMetadata() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "data/one.wav")
        _ = try tone(dir, "data/two.wav", seconds: 0.5)
        let csv =
            "file_name,transcription,speaker_id\ndata/one.wav,\"hello, world\",s1\n"
            + "data/two.wav,\"she said \"\"hi\"\"\nand left\",s2\ndata/three.wav,missing,s3\ndata/one.wav,too,many,fields\n"
        try dir.write("metadata.csv", bytes: Array(csv.utf8))
        #expect(ManifestFormat.detect(path: dir.url.path) == .audiofolder)
        let checked = ManifestReader.load(path: dir.url.path, options: ManifestOptions())
        #expect(checked.utterances.map(\.reference) == ["hello, world", "she said \"hi\" and left"])
        #expect(checked.utterances.map(\.speaker) == ["s1", "s2"])
        #expect(checked.utterances[1].duration == 0.5)
        // The quoted line break moves the next rows down a line.
        #expect(checked.issues.map(\.line) == [5, 6])
        #expect(
            checked.issues.map(\.problem) == [
                .audioMissing("data/three.wav"),
                .invalidValue(field: "row", reason: "4 fields, the header has 3"),
            ])
    }

    @Test func audioFolderWithoutATranscriptColumnIsOneClearError() throws {
        let dir = try TemporaryDirectory()
        try dir.write("metadata.csv", bytes: Array("file_name,label\na.wav,x\n".utf8))
        let load = ManifestReader.load(path: dir.url.path)
        #expect(load.issues.count == 1)
        #expect(load.issues.first?.description.contains("transcription, text, sentence, transcript, reference") == true)
        try dir.write("broken.csv", bytes: Array("file_name,text\na.wav,\"never closed\n".utf8))
        #expect(
            ManifestReader.load(path: dir.path("broken.csv")).issues.map(\.problem) == [
                .malformedCSV("a quoted field is not closed")
            ])
    }

    @Test func oddButValidUnicodeIsKept() throws {
        let dir = try TemporaryDirectory()
        let text = #"{"id":"u","audio":"u.wav","reference":"שלום café 👋🏽 e\u0301","locale":"und","duration":1}"#
        let path = try dir.write("u.jsonl", bytes: Array(text.utf8))
        let load = ManifestReader.load(path: path)
        #expect(load.issues.isEmpty)
        #expect(load.utterances.first?.reference == "שלום café 👋🏽 e\u{301}")
    }

    @Test func missingManifestIsOneIssue() {
        let load = ManifestReader.load(path: "/nonexistent/manifest.jsonl", format: .jsonl)
        #expect(
            load.issues == [
                ManifestIssue(file: "/nonexistent/manifest.jsonl", line: 0, problem: .unreadableFile("no such file"))
            ])
    }

    @Test func kaldiDataDirectoryWithSegments() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "rec1.wav", seconds: 3)
        try dir.write("wav.scp", bytes: Array("rec1 \(dir.path("rec1.wav"))\nrec2 sox x.wav -t wav - |\n".utf8))
        try dir.write("segments", bytes: Array("u1 rec1 0.00 1.20\nu2 rec1 1.30 2.90\nu3 rec2 0 1\nu4 rec1 2 1\n".utf8))
        try dir.write(
            "text",
            bytes: Array("u1 hello there\nu2 general kenobi\nu3 never read\nu4 bad segment\nu5 no segment\n".utf8))
        try dir.write("utt2spk", bytes: Array("u1 spk1\nu2 spk2\n".utf8))
        let load = ManifestReader.load(path: dir.url.path)
        #expect(load.utterances.map(\.id) == ["u1", "u2"])
        #expect(load.utterances[1].offset == 1.3)
        #expect(abs(load.utterances[1].duration - 1.6) < 1e-9)
        #expect(load.utterances[1].speaker == "spk2")
        #expect(load.utterances[0].reference == "hello there")
        // The pipe in wav.scp (once: u3, whose recording it is, is not reported again), the
        // inverted segment, and the two texts without usable segments.
        #expect(load.issues.count == 4)
        #expect(load.issues.contains { $0.file.hasSuffix("wav.scp") && $0.line == 2 })
        #expect(load.issues.contains { $0.file.hasSuffix("segments") && $0.line == 4 })
        let validated = ManifestValidator(allowOutsideRoot: false).validate(load)
        #expect(validated.utterances.count == 2)
    }

    @Test func kaldiWithoutSegmentsTakesDurationsFromAudio() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "a.wav", seconds: 1.5)
        try dir.write("wav.scp", bytes: Array("a a.wav\n".utf8))
        try dir.write("text", bytes: Array("a some words\n".utf8))
        let load = ManifestReader.load(path: dir.url.path, format: .kaldi)
        #expect(load.utterances.first?.duration == -1)
        let validated = ManifestValidator().validate(load)
        #expect(validated.utterances.first?.duration == 1.5)
    }

    @Test func libriSpeechLayout() throws {
        let dir = try TemporaryDirectory()
        let chapter = dir.path("19/198")
        try FileManager.default.createDirectory(atPath: chapter, withIntermediateDirectories: true)
        let writer = try AudioFileWriter(
            path: chapter + "/19-198-0000.flac", format: .speech(sampleRate: 16_000), container: .flac)
        try writer.write(mono: Signal.sine(frequency: 200, sampleRate: 16_000, seconds: 0.5))
        writer.close()
        try dir.write(
            "19/198/19-198.trans.txt", bytes: Array("19-198-0000 NORTHANGER ABBEY\n19-198-0001 MISSING AUDIO\n".utf8))
        let load = ManifestReader.load(path: dir.url.path)
        #expect(load.utterances.map(\.id) == ["19-198-0000", "19-198-0001"])
        #expect(load.utterances[0].speaker == "19")
        #expect(load.utterances[0].audio == "19/198/19-198-0000.flac")
        let validated = ManifestValidator().validate(load)
        #expect(validated.utterances.map(\.id) == ["19-198-0000"])
        #expect(validated.utterances[0].duration == 0.5)
        #expect(validated.issues.map(\.problem) == [.audioMissing("19/198/19-198-0001.flac")])
    }

    @Test func neMoManifest() throws {
        let dir = try TemporaryDirectory()
        _ = try tone(dir, "clip.wav", seconds: 2)
        let text = """
            {"audio_filepath": "clip.wav", "text": "hello world", "duration": 2.0}
            {"audio_filepath": "clip.wav", "text": "segment", "duration": 0.5, "offset": 1.0, "lang": "en"}
            {"audio_filepath": "clip.wav", "duration": 2.0}
            """
        let path = try dir.write("nemo.json", bytes: Array(text.utf8))
        #expect(ManifestFormat.detect(path: path) == .nemo)
        let load = ManifestReader.load(path: path)
        #expect(load.utterances.count == 2)
        #expect(load.utterances[1].offset == 1.0 && load.utterances[1].locale == "en")
        #expect(load.issues.map(\.line) == [3])
        #expect(load.issues.first?.problem == .missingField("text"))
    }
}

@Suite("Manifest validation")
struct ManifestValidatorTests {
    @Test func reportsEveryProblemAndContinues() throws {
        let dir = try TemporaryDirectory()
        let root = dir.path("corpus")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 300, sampleRate: 16_000, seconds: 1), sampleRate: 16_000, to: root + "/good.wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 300, sampleRate: 16_000, seconds: 1), sampleRate: 16_000, to: dir.path("outside.wav")
        )
        try dir.write("corpus/text.wav", bytes: Array("not audio".utf8))
        func line(_ id: String, _ audio: String, _ duration: Double) -> String {
            #"{"id":"\#(id)","audio":"\#(audio)","reference":"x y","locale":"en-US","duration":\#(duration)}"#
        }
        let manifest = [
            line("good", "good.wav", 1.0), line("missing", "nope.wav", 1.0), line("escape", "../outside.wav", 1.0),
            line("notaudio", "text.wav", 1.0), line("long", "good.wav", 2.5), line("dup", "good.wav", 1.0),
            line("dup", "good.wav", 1.0),
        ].joined(separator: "\n")
        let path = try dir.write("corpus/manifest.jsonl", bytes: Array(manifest.utf8))
        let checked = ManifestValidator().validate(ManifestReader.load(path: path))
        // The stated 2.5 s of "long" is a warning: the audio's 1.0 s is used.
        #expect(checked.utterances.map(\.id) == ["good", "long", "dup"])
        #expect(checked.utterances[1].duration == 1.0)
        #expect(checked.warnings.map(\.problem) == [.durationMismatch(stated: 2.5, actual: 1.0)])
        #expect(checked.warnings[0].description.contains("duration 2.5 s in the manifest, 1.0 s in the audio"))
        let problems = checked.issues.map { ($0.line, $0.problem) }
        #expect(problems.count == 4)
        #expect(problems[0].0 == 2 && problems[0].1 == .audioMissing("nope.wav"))
        #expect(problems[1].0 == 3 && problems[1].1 == .pathOutsideRoot("../outside.wav"))
        if case .audioUnreadable = problems[2].1 {} else { Issue.record("line 4: \(problems[2])") }
        #expect(problems[3].0 == 7 && problems[3].1 == .duplicateID("dup", firstLine: 6))
    }

    @Test func statisticsPerTier() {
        let u = [
            Utterance(
                id: "1", audio: "a", reference: "one two", locale: "en", speaker: "a", task: "d", duration: 60,
                tier: "x", split: .test),
            Utterance(
                id: "2", audio: "a", reference: "two three", locale: "en", speaker: "b", task: "d", duration: 30,
                tier: "x", split: .enrollment),
            Utterance(
                id: "3", audio: "a", reference: "four", locale: "en", speaker: "a", task: "d", duration: 30, tier: "y"),
        ]
        let stats = CorpusStatistics(u)
        #expect(stats.rows.map(\.tier) == ["x", "y"])
        #expect(
            stats.rows[0]
                == .init(
                    tier: "x", utterances: 2, seconds: 90, speakers: 2, words: 4, vocabulary: 3, enrollment: 1, test: 1)
        )
        #expect(stats.total.speakers == 2)
        #expect(stats.total.words == 5)
        #expect(stats.table().contains("total"))
    }
}

/// JSON-lines manifests are decoded into typed lines at the boundary: each problem names the file,
/// the line, the entry (when its id can be read) and the field. Each message is checked whole.
@Suite("Manifest lines, decoded")
struct ManifestLineDecodingTests {
    @Test(arguments: [
        (#"{"audio":"a.wav","reference":"x"}"#, "missing field 'id'"),
        (#"{"id":null,"audio":"a.wav","reference":"x"}"#, "missing field 'id'"),
        (#"{"id":7,"audio":"a.wav","reference":"x"}"#, "field 'id': expected a string, got the number 7"),
        (#"{"id":"a","audio":"a.wav"}"#, "[a] missing field 'reference'"),
        (#"{"id":"a","audio":"a.wav","reference":["x"]}"#, "[a] field 'reference': expected a string, got a list"),
        (
            #"{"id":"a","audio":"a.wav","reference":"x","duration":-1}"#,
            "[a] field 'duration': must be a positive number of seconds"
        ),
        (
            #"{"id":"a","audio":"a.wav","reference":"x","words":[{"word":"x","start":"0.1","end":0.2}]}"#,
            "[a] field 'words[0].start': expected a number, got a string"
        ),
        (
            #"{"id":"a","audio":"a.wav","reference":"x","words":[{"word":"x","start":0.1}]}"#,
            "[a] missing field 'words[0].end'"
        ),
        (
            #"{"id":"a","audio":"a.wav","reference":"x","split":"dev"}"#,
            "[a] field 'split': unknown split 'dev' (expected one of: enrollment, test)"
        ),
        (#"["a","b"]"#, "malformed JSON: a line must hold one JSON object"),
        (#"7"#, "malformed JSON: a line must hold one JSON object"),
        (#"{"id":"a","audio":"a.wav","reference":"x""#, "malformed JSON: not valid JSON"),
    ])
    func aBadLineNamesItsField(line: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("m.jsonl", bytes: Array(line.utf8))
        let load = ManifestReader.load(path: path, format: .jsonl)
        #expect(load.utterances.isEmpty)
        #expect(load.issues.map(\.description) == ["\(path):1: \(message)"])
    }

    @Test(arguments: [
        (#"{"text":"x"}"#, "missing field 'audio_filepath'"),
        (#"{"audio_filepath":"/a.wav"}"#, "[/a.wav] missing field 'text'"),
        (
            #"{"audio_filepath":"/a.wav","offset":1.5,"text":3}"#,
            "[/a.wav@1.5] field 'text': expected a string, got the number 3"
        ),
    ])
    func aBadNeMoLineNamesItsField(line: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("m.json", bytes: Array(line.utf8))
        let load = ManifestReader.load(path: path, format: .nemo)
        #expect(load.issues.map(\.description) == ["\(path):1: \(message)"])
    }

    /// A field the format does not read is one warning, at its first line, with how many lines
    /// have it; the lines still load.
    @Test func fieldsTheFormatDoesNotReadAreSaidOnce() throws {
        let dir = try TemporaryDirectory()
        let manifest = """
            {"id":"a","audio":"a.wav","reference":"x","duration":1.0}
            {"id":"b","audio":"b.wav","refrence":"y","reference":"y","duration":1.0,"notes":"n"}
            {"id":"c","audio":"c.wav","refrence":"z","reference":"z","duration":1.0}
            """
        let path = try dir.write("m.jsonl", bytes: Array(manifest.utf8))
        let load = ManifestReader.load(path: path, format: .jsonl)
        #expect(load.utterances.map(\.id) == ["a", "b", "c"])
        let reads =
            "audio, duration, id, locale, offset, reference, speaker, split, task, text, tier, transcript, words"
        #expect(
            load.warnings.map(\.description) == [
                "\(path):2: field 'notes' is not one this format reads, ignored on 1 line (it reads: \(reads))",
                "\(path):2: field 'refrence' is not one this format reads, ignored on 2 lines (it reads: \(reads))",
            ])
        let nemo = try dir.write(
            "n.json", bytes: Array(#"{"audio_filepath":"/a.wav","text":"x","duration":1.0,"pred_text":"x"}"#.utf8))
        #expect(
            ManifestReader.load(path: nemo, format: .nemo).warnings.map(\.description) == [
                "\(nemo):1: field 'pred_text' is not one this format reads, ignored on 1 line (it reads: audio_filepath, duration, lang, offset, speaker, text)"
            ])
    }
}
