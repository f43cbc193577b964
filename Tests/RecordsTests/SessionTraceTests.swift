import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import Records

/// Traces decoded strictly, and compared clause by clause.
@Suite("Session traces")
struct SessionTraceTests {
    static let session =
        #"{"audio":{"channels":1,"frames":16000,"name":"a.wav","sampleRate":16000,"sha256":"\#(String(repeating: "ab", count: 32))"},"bufferFrames":4096,"input":"stream","modules":[{"index":0,"kind":"SpeechTranscriber","locale":"en-US","options":{"reporting":[]}}],"platform":{"speech":"reference","system":"Linux","version":"6.1.0"},"scenario":"stream","type":"session","version":1}"#
    static let lines = [
        session,
        #"{"arguments":{},"inputSeconds":0,"name":"start(inputSequence:)","outcome":"returned","seq":0,"type":"call"}"#,
        #"{"duration":1.0,"finalizedThrough":1.2,"isFinal":true,"module":0,"runs":[{"duration":0.3,"start":0.2,"text":"call"},{"text":" "},{"duration":0.3,"start":0.6,"text":"home"}],"seq":1,"start":0.2,"text":"call home","type":"result"}"#,
        #"{"arguments":{},"inputSeconds":1,"name":"finalizeAndFinishThroughEndOfInput()","outcome":"returned","seq":2,"type":"call"}"#,
        #"{"results":1,"seq":3,"streams":["finished"],"type":"end"}"#,
    ]

    static func decode(_ lines: [String]) throws(TraceError) -> SessionTrace {
        try SessionTrace.decode(Data(lines.joined(separator: "\n").utf8), path: "t.jsonl")
    }

    @Test func aTraceDecodes() throws {
        let trace = try Self.decode(Self.lines)
        #expect(trace.session.scenario == "stream")
        #expect(trace.calls.map(\.name) == ["start(inputSequence:)", "finalizeAndFinishThroughEndOfInput()"])
        #expect(trace.results.first?.runs?.compactMap(\.start) == [0.2, 0.6])
        #expect(trace.streams == [.finished])
    }

    /// A field that is misspelt, missing, of the wrong type or out of range names its file, line and field.
    @Test(arguments: [
        (
            2, #""outcome":"returned""#, #""outcome":"ok""#,
            "t.jsonl:2: field 'outcome': unknown outcome 'ok' (expected one of: returned, threw)"
        ),
        (2, #""seq":0"#, #""seq":5"#, "t.jsonl:2: field 'seq': 5 where 0 was next"),
        (
            3, #""isFinal":true"#, #""isFinal":1"#,
            "t.jsonl:3: field 'isFinal': expected true or false, got the number 1"
        ),
        (
            3, #""start":0.2,"text":"call home""#, #""start":-1,"text":"call home""#,
            "t.jsonl:3: field 'start': -1.0 is out of range"
        ),
        (
            3, #""text":"call home""#, #""txt":"call home""#,
            "t.jsonl:3: field 'txt': unknown field (known fields: alternatives, arrival, duration, finalizedThrough, inputSeconds, isFinal, module, runs, seq, speechDetected, start, text, type)"
        ),
        (1, #""version":1"#, #""version":2"#, "t.jsonl:1: field 'version': version 2 is not supported (expected 1)"),
        (
            1, #""kind":"SpeechTranscriber""#, #""kind":"Transcriber""#,
            "t.jsonl:1: field 'modules[0].kind': unknown module kind 'Transcriber' (expected one of: SpeechTranscriber, DictationTranscriber, SpeechDetector)"
        ),
        (
            5, #""results":1"#, #""results":2"#,
            "t.jsonl:5: field 'results': the end line counts 2 results; the trace has 1"
        ),
        (2, #""outcome":"returned""#, #""outcome":"threw""#, "t.jsonl:2: field 'error': missing for a call that threw"),
    ])
    func badFieldsAreNamed(line: Int, from: String, to: String, message: String) {
        var lines = Self.lines
        lines[line - 1] = lines[line - 1].replacingOccurrences(of: from, with: to)
        #expect(lines != Self.lines)
        #expect(throws: TraceError.self) { try Self.decode(lines) }
        do {
            _ = try Self.decode(lines)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aTraceCutShortIsRefused() {
        do {
            _ = try Self.decode(Array(Self.lines.dropLast()))
            Issue.record("a trace without its end line was read")
        } catch {
            #expect(error.description.hasSuffix("no end line (the recording stopped early)"))
        }
    }

    @Test func identicalTracesHaveNoDifferences() throws {
        let trace = try Self.decode(Self.lines)
        #expect(TraceComparison.compare(trace, trace).differences.isEmpty)
    }

    /// Each kind of difference under its clause: a call that threw is semantics; other words and
    /// moved times are content, with figures; another system is platform.
    @Test func differencesAreClassified() throws {
        let a = try Self.decode(Self.lines)
        var lines = Self.lines
        lines[0] = lines[0].replacingOccurrences(of: #""version":"6.1.0""#, with: #""version":"26.0.0""#)
        lines[2] = lines[2].replacingOccurrences(of: #""start":0.6,"text":"home""#, with: #""start":0.9,"text":"hole""#)
        lines[3] = lines[3].replacingOccurrences(
            of: #""outcome":"returned""#, with: #""error":"SpeechAnalyzerError: finished","outcome":"threw""#)
        let b = try Self.decode(lines)
        let comparison = TraceComparison.compare(a, b)
        #expect(comparison.failed)
        #expect(
            comparison.differences.map(\.description) == [
                "platform platform: Linux 6.1.0 (reference) against Linux 26.0.0 (reference)",
                "semantics calls.finalizeAndFinishThroughEndOfInput(): returned against threw (SpeechAnalyzerError: finished)",
                "content results[0].words: WER 50.0% of the second against the first (2 words; 1 substituted, 0 deleted, 0 inserted)",
            ])
        // The same words at other times are a content difference beyond the tolerance only.
        var moved = Self.lines
        moved[2] = moved[2].replacingOccurrences(of: #""start":0.6,"text":"home""#, with: #""start":0.7,"text":"home""#)
        let shifted = TraceComparison.compare(a, try Self.decode(moved))
        #expect(!shifted.failed)
        #expect(
            shifted.differences.map(\.description) == [
                "content results[0].times: word starts differ by up to 0.100 s (mean 0.050 s over 2 words; tolerance 0.050 s)"
            ])
        #expect(TraceComparison.compare(a, try Self.decode(moved), tolerances: .init(seconds: 0.2)).differences.isEmpty)
    }
}

extension SessionTraceTests {
    /// A session that finished normally with results final short of the audio given is finality
    /// (semantics); the same shortfall when the session did not finish normally is cadence (content).
    @Test func finalityAfterANormalFinishIsSemantics() throws {
        let a = try Self.decode(Self.lines)
        var short = Self.lines
        short[2] = short[2].replacingOccurrences(of: #""finalizedThrough":1.2"#, with: #""finalizedThrough":0.5"#)
        short[2] = short[2].replacingOccurrences(of: #""isFinal":true"#, with: #""isFinal":false"#)
        let comparison = TraceComparison.compare(a, try Self.decode(short))
        #expect(comparison.failed)
        #expect(
            comparison.differences.map(\.clause) == ["results[0].cadence", "results[0].finality", "results[0].words"])
        // Cancelled sessions owe no finality.
        var cancelled = Self.lines, cancelledShort = short
        for index in [3] {
            cancelled[index] = cancelled[index].replacingOccurrences(
                of: "finalizeAndFinishThroughEndOfInput()", with: "cancelAndFinishNow()")
            cancelledShort[index] = cancelledShort[index].replacingOccurrences(
                of: "finalizeAndFinishThroughEndOfInput()", with: "cancelAndFinishNow()")
        }
        let loose = TraceComparison.compare(try Self.decode(cancelled), try Self.decode(cancelledShort))
        #expect(!loose.failed)
        #expect(loose.differences.map(\.clause).contains("results[0].finalizedThrough"))
    }

    /// The rules every module's results obey (isFinal from the finalization time, final results in
    /// order, alternatives led by the text): one broken in one trace only is semantics.
    @Test func resultRulesBrokenInOneTraceOnly() throws {
        let a = try Self.decode(Self.lines)
        var lines = Self.lines
        lines[2] = lines[2].replacingOccurrences(of: #""isFinal":true"#, with: #""isFinal":false"#)
        let b = try Self.decode(lines)
        let differences = TraceComparison.compare(a, b).differences.filter { $0.clause == "results[0].rules" }
        #expect(
            differences.map(\.description) == [
                "semantics results[0].rules: a result over 0.2–1.2 s finalized through 1.2 s says isFinal false in the second only"
            ])
        #expect(TraceComparison.ruleBreaks(a.results).isEmpty)
    }

    /// Errors both traces threw compare by NSError domain and code: another code is semantics;
    /// the same code in other words is reported only when asked for (platform).
    @Test func errorsCompareByDomainAndCode() throws {
        func threw(_ error: String) throws(TraceError) -> SessionTrace {
            var lines = Self.lines
            lines[3] = lines[3].replacingOccurrences(
                of: #""outcome":"returned""#, with: #""error":"\#(error)","outcome":"threw""#)
            return try Self.decode(lines)
        }
        let noModel = try threw("SFSpeechErrorDomain 16: SFSpeechError: SFSpeechError.noModel: (engine a)")
        let reworded = try threw("SFSpeechErrorDomain 16: SFSpeechError: SFSpeechError.noModel: (engine b)")
        let format = try threw("SFSpeechErrorDomain 15: SFSpeechError: SFSpeechError.unexpectedAudioFormat")
        #expect(TraceComparison.compare(noModel, reworded).differences.isEmpty)
        #expect(
            TraceComparison.compare(noModel, reworded, tolerances: .init(wording: true)).differences.map(\.kind)
                == [.platform])
        let other = TraceComparison.compare(noModel, format)
        #expect(other.failed)
        #expect(
            other.differences.first?.detail.hasPrefix("threw SFSpeechErrorDomain 16 against SFSpeechErrorDomain 15")
                == true, "\(other.differences)")
        // Without a domain and code (an older recorder), the text is compared, as platform.
        let plain = try threw("SpeechAnalyzerError: finished"), plainToo = try threw("SpeechAnalyzerError: done")
        #expect(TraceComparison.compare(plain, plainToo).differences.map(\.kind) == [.platform])
    }

    /// Volatile range reports: a replaced handler still called, or a start that moves back, is
    /// semantics; another number of reports is content. Two sequences both left open are alike.
    @Test func volatileRangeReportsAreCompared() throws {
        func report(_ seq: Int, handler: Int, start: Double) -> String {
            #"{"changedEnd":true,"changedStart":true,"duration":0.2,"handler":\#(handler),"seq":\#(seq),"start":\#(start),"type":"volatileRange"}"#
        }
        func trace(_ reports: [String], streams: String = #"["finished"]"#) throws(TraceError) -> SessionTrace {
            let end = #"{"results":0,"seq":\#(reports.count),"streams":\#(streams),"type":"end"}"#
            return try Self.decode([Self.session] + reports + [end])
        }
        let clean = try trace([report(0, handler: 1, start: 0), report(1, handler: 1, start: 0.5)])
        #expect(clean.volatileRanges.count == 2)
        let both = try trace([
            report(0, handler: 0, start: 0), report(1, handler: 1, start: 0), report(2, handler: 1, start: 0.5),
        ])
        #expect(
            TraceComparison.compare(clean, both).differences.map(\.description) == [
                "semantics volatileRange.handlers: reports reached handlers 1 against 0, 1",
                "content volatileRange.reports: 2 reports against 3",
            ])
        let back = try trace([
            report(0, handler: 1, start: 0), report(1, handler: 1, start: 0.5), report(2, handler: 1, start: 0),
        ])
        #expect(
            TraceComparison.compare(clean, back).differences.map(\.description).first
                == "semantics volatileRange.start: the start moved back to 0.0 s in the second only")
        let open = try trace([], streams: #"["open"]"#)
        #expect(TraceComparison.compare(open, open).differences.isEmpty)
        do {
            _ = try trace([report(0, handler: -1, start: 0)])
            Issue.record("a negative handler was read")
        } catch {
            #expect(error.description == "t.jsonl:2: field 'handler': -1 is out of range")
        }
    }
}

/// The replay engine over a trace written here: the recorded words for the recorded audio, an
/// error naming the folder for other audio.
