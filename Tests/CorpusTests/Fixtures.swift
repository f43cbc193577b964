import Foundation
@testable import AudioIO

/// Temporary files for a test, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-harness-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes raw bytes to `name`.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
}

enum Signal {
    static func sine(frequency: Double, sampleRate: Double, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        let n = Int(sampleRate * seconds)
        return (0..<n).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, x.count))).squareRoot()
    }

    /// Power of one frequency (Goertzel), for checking where a tone ended up.
    static func power(of frequency: Double, in x: ArraySlice<Float>, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for v in x {
            let s0 = Double(v) + coefficient * s1 - s2
            s2 = s1; s1 = s0
        }
        return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / Double(x.count * x.count)
    }
}

/// A Debian-installed file some tests read. Locally a missing one skips the test; under CI (CI=true)
/// the test runs and fails, because bootstrap must have installed it.
enum SystemFixture {
    static let asteriskDigits = "/usr/share/asterisk/sounds/en_US_f_Allison/digits"
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    static func available(_ path: String) -> Bool {
        isCI || FileManager.default.fileExists(atPath: path)
    }
}
