import Foundation
import Metrics
import Records
import SpeechCore

/// Two Apple-style programs — an app's old controller and its new one — run on the same
/// microphone input, each traced by the harness's Speech runtime (`SPEECH_HARNESS_TRACE`), and
/// compared like the built-in emulations: the team diffs its own code, not the harness's.
public struct ProgramDiff: Sendable {
    public var oldProgram: [String]
    public var newProgram: [String]
    /// Engine id both programs get (`SPEECH_HARNESS_ENGINE`).
    public var engine: String
    /// Seconds a program may run for one utterance before it is stopped.
    public var timeout: Double
    public var timeTolerance: Double
    /// More environment for both programs (e.g. `SPEECH_HARNESS_SCRIPT` for the scripted engine).
    public var environment: [String: String]
    /// The context whose environment both programs inherit, beneath the settings above.
    public var context: HarnessContext

    public init(
        oldProgram: [String], newProgram: [String], engine: String, timeout: Double = 120, timeTolerance: Double = 0.05,
        environment: [String: String] = [:], context: HarnessContext = .current
    ) {
        self.environment = environment
        self.context = context
        self.oldProgram = oldProgram
        self.newProgram = newProgram
        self.engine = engine
        self.timeout = timeout
        self.timeTolerance = timeTolerance
    }

    public enum ProgramError: Error, CustomStringConvertible, Sendable {
        case cannotRun(program: String, reason: String)
        case timedOut(program: String, seconds: Double)
        case noTrace(program: String, status: Int32, output: String)
        case badTrace(path: String, line: Int, reason: String)

        public var description: String {
            switch self {
            case .cannotRun(let program, let reason): return "\(program): cannot run: \(reason)"
            case .timedOut(let program, let seconds):
                return "\(program): still running after \(Int(seconds)) s; stopped"
            case .noTrace(let program, let status, let output):
                return "\(program): exited \(status) without using a speech API; output: \(output.suffix(400))"
            case .badTrace(let path, let line, let reason): return "\(path):\(line): \(reason)"
            }
        }
    }

    /// Both programs on `microphone` (a file or `manifest.jsonl#id`), compared; with the
    /// utterance's `reference` words, each program's lost tail too.
    public func run(
        id: String, microphone: String, audioSeconds: Double, reference: [TimedWord] = [],
        policy: ScoringPolicy = ScoringPolicy(normalizer: .english)
    ) throws -> UtteranceDiff {
        let old = try trace(oldProgram, microphone: microphone, audioSeconds: audioSeconds)
        let new = try trace(newProgram, microphone: microphone, audioSeconds: audioSeconds)
        return MigrationComparison.compare(
            id: id, legacy: old, analyzer: new, timeTolerance: timeTolerance, reference: reference, policy: policy)
    }

    /// Runs one program with the fast virtual microphone and reads what it was shown.
    func trace(_ command: [String], microphone: String, audioSeconds: Double) throws -> APITrace {
        let name = command.first ?? "?"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "speech-trace-\(UUID().uuidString).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: name)
        process.arguments = Array(command.dropFirst())
        process.environment = context.environment.variables.merging(
            [
                HarnessSettings.microphone.variable: microphone, HarnessSettings.microphonePacing.variable: "fast",
                HarnessSettings.microphoneEnd.variable: "1",
                HarnessSettings.engine.variable: engine, HarnessSettings.trace.variable: path,
            ].merging(environment) { $1 }
        ) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { throw ProgramError.cannotRun(program: name, reason: "\(error)") }
        let reader = Locked(Data())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            reader.withLock { $0 = data }
            drained.signal()
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw ProgramError.timedOut(program: name, seconds: timeout)
        }
        drained.wait()
        let text = String(decoding: reader.withLock { $0 }, as: UTF8.self)
        let events = try Self.read(path)
        guard !events.isEmpty else {
            throw ProgramError.noTrace(program: name, status: process.terminationStatus, output: text)
        }
        return Self.apiTrace(events, program: command, audioSeconds: audioSeconds)
    }

    /// The trace file's events, each line decoded; a bad line is an error naming it.
    static func read(_ path: String) throws -> [APICallTrace.Event] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var events: [APICallTrace.Event] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            do { events.append(try JSONDecoder().decode(APICallTrace.Event.self, from: Data(line.utf8))) } catch {
                throw ProgramError.badTrace(path: path, line: index + 1, reason: "\(error)")
            }
        }
        return events
    }

    /// The trace's events as one trace in the shape the comparison takes: for the legacy API each event
    /// shows the whole best transcription; for the analyzer, finals so far plus the current
    /// volatile result.
    /// The side is named by the program's file name and its arguments (one program, run with
    /// different arguments, may be both sides).
    public static func apiTrace(_ traced: [APICallTrace.Event], program: [String], audioSeconds: Double) -> APITrace {
        var events: [APITrace.Event] = []
        var finalWords: [APITrace.TimedWord] = []
        var volatile: [APITrace.TimedWord] = []
        let apis = Set(traced.map(\.api)).sorted()
        for line in traced {
            let words = line.words.map { APITrace.TimedWord(word: $0.word, start: $0.start, end: $0.end) }
            let time = line.audioTime < 0 ? audioSeconds : line.audioTime
            var shown = events.last?.shown ?? []
            switch (line.api, line.kind) {
            case ("legacy", "final"):
                finalWords = words
                shown = words.map(\.word)
            case ("legacy", "partial"):
                shown = words.map(\.word)
            case (_, "final"):
                finalWords += words
                volatile = []
                shown = finalWords.map(\.word)
            case (_, "partial"):
                volatile = words
                shown = (finalWords + volatile).map(\.word)
            default:
                break
            }
            guard let kind = ["partial": APITrace.Kind.partial, "final": .final, "error": .error][line.kind] else {
                continue
            }
            events.append(APITrace.Event(kind: kind, audioTime: time, shown: shown, detail: line.detail))
        }
        events.append(APITrace.Event(kind: .end, audioTime: audioSeconds, shown: events.last?.shown ?? []))
        let name = ([((program.first ?? "?") as NSString).lastPathComponent] + program.dropFirst()).joined(
            separator: " ")
        let label = "\(name) (\(apis.joined(separator: "+")))"
        return APITrace(api: label, events: events, finalWords: finalWords, audioSeconds: audioSeconds)
    }
}
