import AVFAudio
import AudioIO
import Foundation
import SpeechCore
import TestSupport
import Testing
import VirtualDevice

/// A call and a route change during capture, as an app that follows Apple's interruption guide
/// sees them: the session's notifications, the engine stopping, and what the tap gets after the
/// app starts the engine again. Fast pacing: no test waits on a clock. One at a time, and apart from
/// other tests that interrupt the session: they share the one audio session, whose notifications
/// each observes.
@Suite("Interruptions on the virtual microphone", .serialized, .exclusiveAudioSession)
struct InterruptionTests {
    struct Seen: Sendable {
        var sampleTimes: [Int64] = []
        var events: [String] = []
        var activeWhenInterrupted: Bool?
    }

    /// Captures a one-second tone (then 0.5 s of silence) under `interruption`, restarting the
    /// engine where the app is told it may: an interruption that ended with `shouldResume`, or a
    /// configuration change after the route changed. Returns once the recording has run out.
    static func capture(_ interruption: MicrophoneSettings.Interruption) async throws -> Seen {
        let directory = try TemporaryDirectory()
        var device = try CaptureTests.device(directory)
        device.microphone.interruption = interruption
        return await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            let engine = AVAudioEngine()
            let session = AVAudioSession.sharedInstance()
            try? session.setActive(true)
            let seen = Locked(Seen())
            engine.inputNode.installTap(onBus: 0, bufferSize: 4_800, format: engine.inputNode.outputFormat(forBus: 0)) {
                _, when in
                seen.withLock { $0.sampleTimes.append(when.sampleTime) }
            }
            let center = NotificationCenter.default
            var observers: [NSObjectProtocol] = []
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let routeChanged = Locked(false)
                observers.append(
                    center.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) {
                        note in
                        let info = note.userInfo ?? [:]
                        guard let raw = info[AVAudioSessionInterruptionTypeKey] as? UInt,
                            let type = AVAudioSession.InterruptionType(rawValue: raw)
                        else { return }
                        switch type {
                        case .began:
                            seen.withLock {
                                $0.events.append("began, engine running: \(engine.isRunning)")
                                $0.activeWhenInterrupted = session.isActive
                            }
                        case .ended:
                            let options = AVAudioSession.InterruptionOptions(
                                rawValue: info[AVAudioSessionInterruptionOptionKey] as? UInt ?? 0)
                            seen.withLock {
                                $0.events.append("ended, should resume: \(options.contains(.shouldResume))")
                            }
                            if options.contains(.shouldResume) { try? engine.start() }
                        }
                    })
                observers.append(
                    center.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) {
                        note in
                        let raw = note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt ?? 0
                        let reason = AVAudioSession.RouteChangeReason(rawValue: raw)
                        seen.withLock { $0.events.append("route change: \(reason.map { "\($0)" } ?? "?")") }
                        routeChanged.withLock { $0 = true }
                    })
                observers.append(
                    center.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
                        seen.withLock { $0.events.append("configuration change, engine running: \(engine.isRunning)") }
                        if routeChanged.withLock({ $0 }) {
                            routeChanged.withLock { $0 = false }
                            try? engine.start()
                        } else {
                            done.resume()
                        }
                    })
                do { try engine.start() } catch {
                    Issue.record("\(error)")
                    done.resume()
                }
            }
            observers.forEach(center.removeObserver)
            return seen.withLock { $0 }
        }
    }

    @Test func aCallStopsTheEngineAndItsAudioIsLost() async throws {
        let seen = try await Self.capture(.call(at: 0.45, until: 1.0))
        #expect(
            seen.events == [
                "began, engine running: false", "ended, should resume: true",
                "configuration change, engine running: false",
            ])
        #expect(seen.activeWhenInterrupted == false)
        // 0 to 0.4 s before the call (the buffer the call starts in is not delivered), then from
        // 1.0 s, when it ended, to the recording's end at 1.5 s.
        let before: [Int64] = [0, 4_800, 9_600, 14_400]
        let after: [Int64] = (0..<5).map { 48_000 + Int64($0) * 4_800 }
        #expect(seen.sampleTimes == before + after)
    }

    @Test func aRouteChangeStopsTheEngineUntilTheAppStartsItAgain() async throws {
        let seen = try await Self.capture(.routeChange(at: 0.45))
        #expect(
            seen.events == [
                "route change: oldDeviceUnavailable", "configuration change, engine running: false",
                "configuration change, engine running: false",
            ])
        // No audio is lost: the recording goes on from where it stopped.
        let all: [Int64] = (0..<15).map { Int64($0) * 4_800 }
        #expect(seen.sampleTimes == all)
    }

    @Test func theSettingReadsCallsAndRouteChanges() throws {
        typealias I = MicrophoneSettings.Interruption
        #expect(I.parse("call:2-5") == .some(.call(at: 2, until: 5)))
        #expect(I.parse("route-change:1.5") == .some(.routeChange(at: 1.5)))
        #expect(I.parse("none") == .some(nil))
        for wrong in ["call:5-2", "call:2", "route-change:", "hang-up:1"] {
            #expect(I.parse(wrong) == nil)
            #expect(!HarnessSettings.interruption.accepts(wrong))
        }
        let device = try DeviceSettings.fromEnvironment(["SPEECH_HARNESS_INTERRUPTION": "call:0.5-2"])
        #expect(device.microphone.interruption == .call(at: 0.5, until: 2))
    }
}
