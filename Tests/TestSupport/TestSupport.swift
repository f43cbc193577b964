import AudioIO
// Helpers shared by the test targets: temporary files, test signals, installed-fixture checks,
// per-test resource pools, a thread-safe event log, running programs.
import Foundation
import SpeechCore
@_spi(Harness) import SpeechReference
import Testing

/// Temporary files for a test, removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-harness-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes raw bytes to `name`.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
}

public enum Signal {
    public static func sine(frequency: Double, sampleRate: Double, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        let n = Int(sampleRate * seconds)
        return (0..<n).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    public static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot()
    }

    /// Power of one frequency (Goertzel), for checking where a tone ended up.
    public static func power(of frequency: Double, in x: ArraySlice<Float>, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for v in x {
            let s0 = Double(v) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / Double(x.count * x.count)
    }
}

/// Debian-installed files some tests read. Locally a missing one skips the test; under CI
/// (CI=true) the test runs and fails, because bootstrap must have installed it.
public enum SystemFixture {
    public static let asteriskDigits = "/usr/share/asterisk/sounds/en_US_f_Allison/digits"
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether a test may use the file at `path`: present, or in CI, where a missing fixture must
    /// fail the test rather than skip it (for `.enabled(if:)`).
    public static func available(_ path: String) -> Bool {
        isCI || FileManager.default.fileExists(atPath: path)
    }

    /// The package's root folder (for scripts and the Python environment).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().path
}

/// Gives each test its own engine-configuration pool, so tests running in parallel never count
/// against each other's resource limit (tests of the limit set their own, smaller pool).
public struct IsolatedResourcePool: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await HarnessContext.$current.withValue(
            HarnessContext.current.with(\.resourcePool, ResourcePool(limit: 64))
        ) { try await function() }
    }
}

extension Trait where Self == IsolatedResourcePool {
    public static var isolatedResources: Self { Self() }
}

/// A thread-safe list for callbacks.
public final class EventLog<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []
    public init() {}
    public func append(_ item: T) {
        lock.lock()
        storage.append(item)
        lock.unlock()
    }
    public var items: [T] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Audio writing for tests that do not import AudioIO themselves.
public enum AudioIOBridge {
    public static func write(_ samples: [Float], sampleRate: Double = 16_000, to path: String) throws {
        try AudioFileWriter.writeMono(samples, sampleRate: sampleRate, to: path)
    }
}

/// The package's own programs, run as a user would: output and error merged, exit status.
public enum PackageProgram {
    public static var binaries: URL {
        URL(fileURLWithPath: SystemFixture.packageRoot).appendingPathComponent(".build/debug")
    }

    public static func isBuilt(_ program: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent(program).path)
    }

    /// Whether a test may run `program`: built, or in CI, where a missing program must fail the
    /// test rather than skip it (for `.enabled(if:)`).
    public static func available(_ program: String) -> Bool { SystemFixture.isCI || isBuilt(program) }

    /// Runs `program` (one of the package's, or an absolute path) with `environment` added to this
    /// process's; returns its status and output.
    public static func run(
        _ program: String, _ arguments: [String] = [], environment: [String: String], directory: String? = nil
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL =
            program.hasPrefix("/") ? URL(fileURLWithPath: program) : binaries.appendingPathComponent(program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// Another program (sclite, the Python references), fed `input` on standard input; standard
/// output and standard error are read apart, both to the end, so neither pipe can fill and block.
public enum ExternalProgram {
    public static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil
    ) throws
        -> (status: Int32, output: String, errors: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            Thread {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }.start()
        }
        let errorText = Locked("")
        let done = DispatchSemaphore(value: 0)
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            done.signal()
        }.start()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, text, errorText.withLock { $0 })
    }
}

/// An adapter that hands its sessions to its base unchanged, as a streaming policy hands it
/// windows: for tests of code that reaches or replaces the engine under adapters.
public struct RelayEngine: EngineAdapter {
    public let id: String
    public let base: any RecognitionEngine
    public init(id: String, base: any RecognitionEngine) {
        self.id = id
        self.base = base
    }
    public var capabilities: EngineCapabilities { base.capabilities }
    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        try await base.makeSession(configuration)
    }
    public func replacingBase(_ base: any RecognitionEngine) -> RelayEngine { RelayEngine(id: id, base: base) }
}

extension EngineCapabilities {
    /// A test engine that hears US English at 16 kHz in Float32 and answers only when finalised,
    /// with word times: what the benchmark's test engines declare.
    public static let finalWordsOnly16kHz = EngineCapabilities(
        partialResults: false, wordTimes: true, alternatives: false, confidence: false, locales: ["en-US"],
        formats: [AudioFormat(sampleRate: 16_000, channelCount: 1, sampleType: .float32)])
}

/// Runs the tests that make or watch the one audio session's notifications (interruptions, route
/// changes) one at a time across suites: `AVAudioSession.sharedInstance()` is the process's, so
/// two such tests at once would see each other's calls.
public struct ExclusiveAudioSession: SuiteTrait, TestTrait, TestScoping {
    private actor Gate {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }

    private static let gate = Gate()

    /// On a suite, the suite holds the gate once for all its tests.
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.gate.enter()
        do {
            try await function()
        } catch {
            await Self.gate.leave()
            throw error
        }
        await Self.gate.leave()
    }
}

extension Trait where Self == ExclusiveAudioSession {
    public static var exclusiveAudioSession: Self { Self() }
}
