import Foundation

/// Memory figures of this process, from `/proc/self/status`.
public enum ProcessMemory {
    /// Current resident set size (VmRSS) in bytes.
    public static func residentBytes() -> Int? { statusField("VmRSS:") }

    /// Open file descriptors of this process.
    public static func openFileCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
    }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]).map { $0 * 1024 }
        }
        return nil
    }

    /// Peak resident set size (VmHWM) in bytes; nil where /proc is not available.
    public static func peakResidentBytes() -> Int? { statusField("VmHWM:") }
}
