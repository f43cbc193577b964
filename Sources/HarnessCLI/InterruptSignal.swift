import Dispatch
import Foundation

/// SIGINT (and SIGTERM) as a flag a long command polls: the first signal asks it to stop taking
/// new work and to write what it has; a second one ends the process at once, as usual.
final class InterruptSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var raised: Int32?
    private var sources: [any DispatchSourceSignal] = []

    /// Starts listening; `onFirst` runs once, on a private queue, when the first signal arrives.
    init(onFirst: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let queue = DispatchQueue(label: "speech-harness.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.lock.withLock { () -> Bool in
                    guard self.raised == nil else { return false }
                    self.raised = number
                    return true
                }
                if first {
                    onFirst(number)
                } else {
                    signal(number, SIG_DFL)
                    kill(getpid(), number)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal received, or nil.
    var received: Int32? { lock.withLock { raised } }

    /// Stops listening and restores the default handlers.
    func cancel() {
        let active = lock.withLock { () -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        active.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
