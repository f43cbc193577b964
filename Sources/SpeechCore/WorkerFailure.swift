/// Why the harness gave up on an engine's worker process, and on which call: what a run reports
/// for every session the failure ended, so that a fault can be told from its bystanders.
public struct WorkerFailure: Sendable, Hashable, CustomStringConvertible {
    /// What the worker did.
    public enum Kind: Sendable, Hashable {
        /// Its output ended (it exited or crashed).
        case stopped
        /// It stopped reading its input.
        case notReading
        /// It stayed silent past the call timeout while a reply was due.
        case noReply(seconds: Double)
        /// A reply that is not a message of the protocol (`detail` says why, `text` is its start).
        case malformedReply(detail: String, text: String)
        /// A well-formed message that is not what was due.
        case unexpectedReply(String)
        /// A reply line over the protocol's limit.
        case oversizedReply(bytes: Int)
    }

    /// How the worker process ended, once it was stopped.
    public enum Exit: Sendable, Hashable, CustomStringConvertible {
        case status(Int32)
        case signal(Int32)

        public var description: String {
            switch self {
            case .status(let code): return "exited with status \(code)"
            case .signal(let number):
                let names: [Int32: String] = [6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"]
                return "killed by signal \(number)" + (names[number].map { " (\($0))" } ?? "")
            }
        }
    }

    public var kind: Kind
    /// The protocol request the failure came in (`hello`, `start`, `audio`, `finalize`, `cancel`,
    /// `end`), or nil when no call was waiting (the output ended between calls).
    public var call: String?
    /// The worker's session number that call was for (nil for the handshake).
    public var session: Int?
    /// How the process ended after the harness stopped it (nil if that could not be read).
    public var exit: Exit?
    /// The end of what the worker wrote to its standard error.
    public var stderrTail: String

    public init(kind: Kind, call: String?, session: Int?, exit: Exit?, stderrTail: String) {
        self.kind = kind
        self.call = call
        self.session = session
        self.exit = exit
        self.stderrTail = stderrTail
    }

    /// What happened, where: "no reply to 'finalize' (session 3) within 3.0 seconds; the worker
    /// was stopped (killed by signal 15 (SIGTERM)); worker stderr: …".
    public var description: String {
        var text: String
        switch kind {
        case .stopped: text = "the worker stopped\(place(" during"))"
        case .notReading: text = "the worker is not reading\(place(" at"))"
        case .noReply(let seconds): text = "no reply\(place(" to")) within \(seconds) seconds"
        case .malformedReply(let detail, let start): text = "malformed reply\(place(" to")) (\(detail)): \(start)"
        case .unexpectedReply(let what): text = "\(what)\(place(" in answer to"))"
        case .oversizedReply(let bytes):
            text = "a reply line\(place(" to")) over \(WorkerFailure.maximumLine) bytes (\(bytes)+)"
        }
        switch kind {
        case .stopped, .notReading: text += exit.map { " (\($0))" } ?? ""
        default: text += "; the worker was stopped" + (exit.map { " (\($0))" } ?? "")
        }
        return text + (stderrTail.isEmpty ? "" : "; worker stderr: …\(stderrTail.suffix(600))")
    }

    /// The longest reply line a worker may send (WorkerProtocol.md).
    public static let maximumLine = 8 * 1024 * 1024

    private func place(_ preposition: String) -> String {
        guard let call else { return " between calls" }
        return "\(preposition) '\(call)'" + (session.map { " (session \($0))" } ?? "")
    }
}
