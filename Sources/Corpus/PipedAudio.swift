import Foundation
import SpeechCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the command of a Kaldi `wav.scp` pipeline entry (`flac -c -d -s x.flac |`) and keeps its
/// audio in a file. Commands run only when the user allows them (`--allow-commands`), in the data
/// directory, in a process group of their own, so that a timeout stops the whole pipeline.
public struct PipedAudio: Sendable {
    /// Longest a command may run.
    public var timeout: Double = 120
    /// Where outputs go: one file per command, named by its checksum.
    public var directory: String

    public init(
        timeout: Double = 120, directory: String = FileManager.default.temporaryDirectory.path + "/speech-harness-piped"
    ) {
        self.timeout = timeout
        self.directory = directory
    }

    public struct Failure: Error, Sendable, Equatable {
        public var reason: String
    }

    /// Runs `command` (the entry without its trailing `|`) in `workingDirectory`; returns the file
    /// holding what it wrote to standard output.
    public func materialize(_ command: String, in workingDirectory: String) throws(Failure) -> String {
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw Failure(reason: "cannot create \(directory): \(error)")
        }
        let output =
            directory + "/" + String(SHA256.hex(Array((workingDirectory + "\n" + command).utf8)).prefix(24)) + ".audio"
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&errorPipe) == 0 else { throw Failure(reason: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, errorPipe[0])
        posix_spawn_file_actions_addclose(&actions, errorPipe[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        // The shell moves to the data directory, then runs the command line as written.
        let arguments: [String] = [
            "/bin/sh", "-c", "cd -- \"$1\" || exit 125; eval \"$2\"", "sh", workingDirectory, command,
        ]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(errorPipe[1])
        guard spawned == 0 else {
            close(errorPipe[0])
            throw Failure(reason: "cannot start /bin/sh: \(String(cString: strerror(spawned)))")
        }
        // Standard error is read on a thread of its own (until every process of the group has
        // closed it); the exit is awaited on another, so the timeout can stop the group.
        let stderrText = Locked<[UInt8]>([])
        let readDone = DispatchSemaphore(value: 0), exited = DispatchSemaphore(value: 0)
        let readEnd = errorPipe[0]
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n <= 0 { break }
                stderrText.withLock { $0 = Array(($0 + buffer[0..<n]).suffix(4000)) }
            }
            close(readEnd)
            readDone.signal()
        }.start()
        let status = Locked<Int32>(0)
        let child = pid
        Thread {
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
            status.withLock { $0 = raw }
            exited.signal()
        }.start()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(-pid, SIGKILL)
            exited.wait()
        }
        kill(-pid, SIGKILL)  // what is left of the pipeline once its shell is gone
        readDone.wait()
        let message = String(decoding: stderrText.withLock { $0 }, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let detail = message.isEmpty ? "" : "; stderr: \(message.suffix(600))"
        if timedOut { throw Failure(reason: "the command ran past \(Int(timeout)) s and was stopped\(detail)") }
        let raw = status.withLock { $0 }
        let exitStatus = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        guard exitStatus == 0 else { throw Failure(reason: "the command exited with status \(exitStatus)\(detail)") }
        return output
    }
}
