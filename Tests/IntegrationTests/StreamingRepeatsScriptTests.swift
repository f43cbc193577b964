import Foundation
import TestSupport
import Testing

/// `scripts/streaming-repeats` on records of the shapes it must count.
@Suite("Streaming repeats script")
struct StreamingRepeatsScriptTests {
    static func record(_ id: String, alignment: String) -> String {
        let fields: [String: Any] = [
            "engine": "whisper-cpp-stream-vad", "manifest": "m.jsonl", "id": id, "tier": "digits-joined",
            "alignment": alignment,
        ]
        return String(
            decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func aBlockShownTwiceIsARepeatedRunWhereverItIs() throws {
        let directory = try TemporaryDirectory()
        let lines = [
            // The end-of-stream shape: the first four digits, then the whole string.
            Self.record(
                "again",
                alignment: "REF:  4 7 3 9 * * * * 1 2 6\nHYP:  4 7 3 9 4 7 3 9 1 2 6\nEval:         I I I I      "),
            // A run repeated in the middle.
            Self.record(
                "middle", alignment: "REF:  1 2 3 4 * * 5 6\nHYP:  1 2 3 4 3 4 5 6\nEval:         I I    "),
            // The reference says it twice too: not counted.
            Self.record("said", alignment: "REF:  1 2 1 2 3\nHYP:  1 2 1 2 3\nEval:          "),
            // One digit twice is not a run of two (it is a prefix said twice).
            Self.record("digit", alignment: "REF:  5 * 6\nHYP:  5 5 6\nEval:    I  "),
        ]
        try directory.write("utterances.jsonl", bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        let (status, output, errors) = try ExternalProgram.run(
            "/usr/bin/python3",
            [SystemFixture.packageRoot + "/scripts/streaming-repeats", directory.path("utterances.jsonl")])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("utterances 4,"), "\(output)")
        #expect(output.contains("prefix repeated 2, run repeated 2"), "\(output)")
    }
}
