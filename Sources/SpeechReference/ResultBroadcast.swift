import SpeechCore

/// A result stream every reader sees in full: each iterator starts at the first result and reads
/// on, so results published before a reader arrived (or after the session finished) stay readable.
/// It ends once, either normally or with one error that every reader then gets.
final class ResultBroadcast<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var termination: Result<Void, any Error>?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    private enum Step {
        case element(Element)
        case end(Result<Void, any Error>)
        case wait
    }

    /// Appends a result; ignored after the stream has ended.
    func publish(_ element: Element) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.termination == nil else { return [] }
            state.elements.append(element)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Ends the stream (normally when `error` is nil). Only the first call counts.
    func finish(throwing error: (any Error)? = nil) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.termination == nil else { return [] }
            state.termination = error.map { .failure($0) } ?? .success(())
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    var isFinished: Bool { state.withLock { $0.termination != nil } }
    var terminationError: (any Error)? {
        state.withLock { state in
            if case .failure(let error)? = state.termination { return error }
            return nil
        }
    }
    var publishedCount: Int { state.withLock { $0.elements.count } }
    var published: [Element] { state.withLock { $0.elements } }

    /// The element at `index`, waiting for it; nil at the normal end.
    fileprivate func element(at index: Int) async throws -> Element? {
        while true {
            let step = state.withLock { state -> Step in
                if index < state.elements.count { return .element(state.elements[index]) }
                if let termination = state.termination { return .end(termination) }
                return .wait
            }
            switch step {
            case .element(let element): return element
            case .end(let termination):
                try termination.get()
                return nil
            case .wait:
                try Task.checkCancellation()
                let id = state.withLock { state -> Int in
                    state.nextWaiter += 1
                    return state.nextWaiter
                }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ready = state.withLock { state -> Bool in
                            if index < state.elements.count || state.termination != nil || Task.isCancelled {
                                return true
                            }
                            state.waiters[id] = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                    waiter?.resume()
                }
            }
        }
    }
}

/// The async sequence a module's `results` property returns.
public struct ModuleResults<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error
    let broadcast: ResultBroadcast<Element>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let broadcast: ResultBroadcast<Element>
        var index = 0

        public mutating func next() async throws -> Element? {
            guard let element = try await broadcast.element(at: index) else { return nil }
            index += 1
            return element
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(broadcast: broadcast) }
}
