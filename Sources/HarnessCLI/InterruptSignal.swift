import Dispatch
import Foundation
import SpeechCore

/// SIGINT (and SIGTERM) as a flag a long command polls: the first signal asks it to stop taking
/// new work and to write what it has; a second one ends the process at once, as usual.
final class InterruptSignal: Sendable {
    private let raised = Locked<Int32?>(nil)
    private let sources = Locked<[any DispatchSourceSignal]>([])

    /// Starts listening; `onFirst` runs once, on a private queue, when the first signal arrives.
    init(onFirst: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let queue = DispatchQueue(label: "speech-harness.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.raised.withLock { raised -> Bool in
                    guard raised == nil else { return false }
                    raised = number
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
            sources.withLock { $0.append(source) }
        }
    }

    /// The signal received, or nil.
    var received: Int32? { raised.withLock { $0 } }

    /// Stops listening and restores the default handlers.
    func cancel() {
        let active = sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        active.forEach { $0.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
