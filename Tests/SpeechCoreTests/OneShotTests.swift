import Testing

@testable import SpeechCore

@Suite("OneShot")
struct OneShotTests {
    @Test func waitersBeforeAndAfterTheEventAllReturn() async {
        let event = OneShot()
        let early = Task { await event.wait() }
        #expect(!event.hasFired)
        event.fire()
        await early.value
        await event.wait()  // after firing: at once
        event.fire()  // a second fire is nothing
        #expect(event.hasFired)
    }

    /// A cancelled waiter stops waiting though the event never comes.
    @Test func aCancelledWaiterReturnsWithoutTheEvent() async {
        let event = OneShot()
        let waiter = Task { await event.wait() }
        waiter.cancel()
        await waiter.value
        #expect(!event.hasFired)
    }
}
