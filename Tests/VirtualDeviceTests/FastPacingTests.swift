import Foundation
import SpeechCore
import Testing
import VirtualDevice

/// Fast pacing's rule, as arithmetic: how far the microphone may run ahead of recognition, or of
/// the wall clock when nothing recognises its audio.
@Suite("Fast pacing")
struct FastPacingRuleTests {
    let pacing = FastPacing(recognitionLead: 1, clockLead: 10)

    @Test func withARecogniserTheProgramHoldsAtMostTheLead() {
        var state = FastPacing.State(start: 0, at: 0)
        state.attached = true
        state.pending = 0.9
        #expect(pacing.decide(start: 5, end: 5.1, state: state, now: 0) == .deliver)
        state.pending = 0.95
        #expect(pacing.decide(start: 5, end: 5.1, state: state, now: 0) == .awaitRecognition)
        // A buffer longer than the lead still goes once nothing is pending.
        state.pending = 0
        #expect(pacing.decide(start: 5, end: 6.5, state: state, now: 0) == .deliver)
    }

    @Test func withoutARecogniserAudioRunsAtMostTheClockLeadAheadOfWallTime() {
        var state = FastPacing.State(start: 0, at: 100)
        state.pending = 25  // held by the program, but nothing recognises it: the clock decides
        #expect(pacing.decide(start: 9.9, end: 10, state: state, now: 100) == .deliver)
        #expect(pacing.decide(start: 12, end: 12.1, state: state, now: 100) == .sleep(12.1 - 10))
        #expect(pacing.decide(start: 12, end: 12.1, state: state, now: 102.5) == .deliver)
    }

    /// A recogniser that finished (its session ended, by an error too) will consume nothing more:
    /// audio handed to it no longer holds the microphone back; the clock lead still does.
    @Test func aFinishedRecogniserHoldsNothingBack() {
        var state = FastPacing.State(start: 0, at: 0)
        state.attached = true
        state.pending = 3
        #expect(pacing.decide(start: 5, end: 5.1, state: state, now: 0) == .awaitRecognition)
        state.recognitionStopped = true
        #expect(pacing.decide(start: 5, end: 5.1, state: state, now: 0) == .deliver)
        #expect(pacing.decide(start: 12, end: 12.1, state: state, now: 0) == .sleep(12.1 - 10))
    }

    @Test func theClockCountsFromTheLastAudioARecogniserConsumed() {
        var state = FastPacing.State(start: 0, at: 0)
        state.attached = true
        state.recognisedEnd = 300
        state.recognisedAt = 7
        // The recogniser stopped taking audio at 300 s: 10 s more go at once, then real time.
        #expect(pacing.decide(start: 309.9, end: 310, state: state, now: 7) == .deliver)
        #expect(pacing.decide(start: 311, end: 311.1, state: state, now: 8) == .sleep(311.1 - 310 - 1))
    }
}

@Suite("Capture flow")
struct CaptureFlowTests {
    @Test func leasesSettleWhenConsumedOrLetGo() {
        let flow = CaptureFlow(pacing: FastPacing(recognitionLead: 0.25, clockLead: 10))
        var first: CaptureLease? = flow.deliver(start: 0, end: 0.1)
        let second = flow.deliver(start: 0.1, end: 0.2)
        #expect(abs(flow.pending - 0.2) < 1e-9)
        second.handedToRecognition()
        // Attached, and a third buffer would make 0.3 s pending: the microphone would wait.
        second.consumed()
        second.consumed()  // once only
        #expect(abs(flow.pending - 0.1) < 1e-9)
        first = nil  // the program let go of the first buffer without recognising it
        #expect(first == nil && flow.pending == 0)
        #expect(abs(flow.peakPending - 0.2) < 1e-9)
        #expect(flow.waitToDeliver(start: 0.2, end: 0.3))
    }

    @Test func stoppingWakesAWaitingMicrophone() {
        let flow = CaptureFlow(pacing: FastPacing(recognitionLead: 0.1, clockLead: 10))
        let held = flow.deliver(start: 0, end: 0.1)
        held.handedToRecognition()
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Bool?>(nil)
        let thread = Thread {
            // Whether it starts waiting before or after the stop, it returns false.
            result.withLock { $0 = flow.waitToDeliver(start: 0.1, end: 0.2) }
            done.signal()
        }
        thread.start()
        flow.stop()
        done.wait()
        #expect(result.withLock { $0 } == false)
        withExtendedLifetime(held) {}
    }
}
