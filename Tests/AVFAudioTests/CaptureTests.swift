import AVFAudio
import AudioIO
import Foundation
import SpeechCore
import TestSupport
import Testing
import VirtualDevice

/// The capture path on the virtual microphone: `fast` pacing throughout (buffers follow each
/// other as the tap returns; time stamps come from the samples), so no test waits on a clock.
@Suite("AVAudioEngine on the virtual microphone")
struct CaptureTests {
    /// A one-second 16 kHz tone file, and device settings that play it at 48 kHz then stop.
    static func device(
        _ directory: TemporaryDirectory, seconds: Double = 1, permission: PermissionState = .authorized,
        end: MicrophoneSettings.SourceEnd = .stopEngine(afterSilence: 0.5)
    ) throws -> DeviceSettings {
        let path = directory.path("tone.wav")
        try AudioFileWriter.writeMono(
            Signal.sine(frequency: 300, sampleRate: 16_000, seconds: seconds), sampleRate: 16_000, to: path)
        return DeviceSettings(
            microphone: MicrophoneSettings(source: .file(path: path), pacing: .fast, end: end),
            recordPermission: permission)
    }

    struct Captured: Sendable {
        var frames: [Int] = []
        var sampleTimes: [Int64] = []
        var hostTimes: [UInt64] = []
        var samples: [Float] = []
        var formats: [String] = []
    }

    /// Runs an engine with a tap until the microphone's recording has ended and it stopped.
    static func capture(
        _ device: DeviceSettings, bufferSize: AVAudioFrameCount = 1024,
        format: (AVAudioInputNode) -> AVAudioFormat? = { $0.outputFormat(forBus: 0) }
    ) async throws -> Captured {
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            let engine = AVAudioEngine()
            let input = engine.inputNode
            let log = Locked(Captured())
            input.installTap(onBus: 0, bufferSize: bufferSize, format: format(input)) { buffer, when in
                let samples = Array(
                    UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
                log.withLock {
                    $0.frames.append(Int(buffer.frameLength))
                    $0.sampleTimes.append(when.sampleTime)
                    $0.hostTimes.append(when.hostTime)
                    $0.samples += samples
                    $0.formats.append(buffer.format.description)
                }
            }
            // The observer goes when the engine has stopped: a later test's engine may be given
            // this one's address, and its notification must not reach this continuation.
            var observer: NSObjectProtocol?
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                observer = NotificationCenter.default.addObserver(
                    forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil
                ) { _ in
                    done.resume()
                }
                do { try engine.start() } catch {
                    Issue.record("\(error)")
                    done.resume()
                }
            }
            observer.map(NotificationCenter.default.removeObserver)
            #expect(!engine.isRunning)
            return log.withLock { $0 }
        }
    }

    @Test func tapBuffersAreTenthsOfASecondWithContinuousTimes() async throws {
        let directory = try TemporaryDirectory()
        let captured = try await Self.capture(try Self.device(directory))
        // 1 s of audio and 0.5 s of silence at 48 kHz: 15 buffers of 4,800 frames.
        #expect(captured.frames == Array(repeating: 4_800, count: 15))
        #expect(captured.sampleTimes == (0..<15).map { Int64($0 * 4_800) })
        #expect(captured.hostTimes == captured.sampleTimes.map { UInt64((Double($0) / 48_000 * 1e9).rounded()) })
        #expect(Set(captured.formats) == ["<AVAudioFormat: 1 ch, 48000 Hz, Float32, deinterleaved>"])
        // The tone is heard during the first second, silence after it.
        let tone = captured.samples[12_000..<36_000], after = captured.samples[50_000..<72_000]
        #expect(Signal.rms(tone) > 0.2 && Signal.rms(after) == 0)
        #expect(
            Signal.power(of: 300, in: tone, sampleRate: 48_000) > 100
                * Signal.power(of: 1_200, in: tone, sampleRate: 48_000))
    }

    @Test func aLargerRequestedBufferIsHonouredUpToFourTenths() async throws {
        let directory = try TemporaryDirectory()
        let captured = try await Self.capture(try Self.device(directory), bufferSize: 48_000)
        #expect(Set(captured.frames) == [19_200])
        #expect(zip(captured.sampleTimes.dropFirst(), captured.sampleTimes).allSatisfy { $0 - $1 == 19_200 })
    }

    @Test func hardwareBuffersConvertToTheAnalyzerFormat() async throws {
        let directory = try TemporaryDirectory()
        let captured = try await Self.capture(try Self.device(directory))
        let hardware = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let analyzer = AVAudioFormat(
            commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: false)!
        let converter = AVAudioConverter(from: hardware, to: analyzer)!
        var converted: [Int16] = []
        for start in stride(from: 0, to: captured.samples.count, by: 4_800) {
            let buffer = AVAudioPCMBuffer(pcmFormat: hardware, frameCapacity: 4_800)!
            buffer.frameLength = 4_800
            for i in 0..<4_800 { buffer.floatChannelData![0][i] = captured.samples[start + i] }
            let out = AVAudioPCMBuffer(pcmFormat: analyzer, frameCapacity: 1_600)!
            var given = false
            var error: NSError?
            let status = converter.convert(to: out, error: &error) { _, status in
                defer { given = true }
                status.pointee = given ? .noDataNow : .haveData
                return given ? nil : buffer
            }
            #expect(status != .error, "\(String(describing: error))")
            converted += Array(UnsafeBufferPointer(start: out.int16ChannelData![0], count: Int(out.frameLength)))
        }
        // A third of the frames, within the resampler's delay, and the tone where it was.
        #expect(abs(converted.count - captured.samples.count / 3) < 200)
        let tone = converted[4_000..<12_000].map { Float($0) / 32_768 }[...]
        #expect(
            Signal.power(of: 300, in: tone, sampleRate: 16_000) > 100
                * Signal.power(of: 1_200, in: tone, sampleRate: 16_000))
    }

    @Test func deniedMicrophoneAccessRecordsSilence() async throws {
        let directory = try TemporaryDirectory()
        let device = try Self.device(directory, permission: .denied)
        let captured = try await Self.capture(device)
        #expect(captured.frames.count == 15)
        #expect(captured.samples.allSatisfy { $0 == 0 })
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, PermissionLedger())) {
            await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
                #expect(AVAudioSession.sharedInstance().recordPermission == .denied)
                #expect(AVAudioApplication.shared.recordPermission == .denied)
                #expect(await AVAudioApplication.requestRecordPermission() == false)
            }
        }
    }

    @Test func anUndecidedPermissionIsGrantedWhenAsked() async {
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, PermissionLedger())) {
            await HarnessContext.$current.withValue(
                HarnessContext.current.with(\.device, DeviceSettings(recordPermission: .notDetermined))
            ) {
                #expect(AVAudioApplication.shared.recordPermission == .undetermined)
                let granted = await withCheckedContinuation { done in
                    AVAudioSession.sharedInstance().requestRecordPermission { done.resume(returning: $0) }
                }
                #expect(granted)
                #expect(AVAudioSession.sharedInstance().recordPermission == .granted)
            }
        }
    }

    @Test func withoutAnInputDeviceTheFormatIsEmptyAndStartThrows() throws {
        HarnessContext.$current.withValue(
            HarnessContext.current.with(\.device, DeviceSettings(microphone: MicrophoneSettings(source: .none)))
        ) {
            let engine = AVAudioEngine()
            let format = engine.inputNode.outputFormat(forBus: 0)
            #expect(format.sampleRate == 0 && format.channelCount == 0)
            #expect(!AVAudioSession.sharedInstance().isInputAvailable)
            engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
            do {
                try engine.start()
                Issue.record("an engine without an input device started")
            } catch {
                #expect((error as NSError).domain == AVFAudioErrorDomain && (error as NSError).code == -10851)
            }
            #expect(!engine.isRunning)
        }
    }

    @Test func anUnreadableSourceFailsStartNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("noise.wav", bytes: Array(repeating: 7, count: 64))
        HarnessContext.$current.withValue(
            HarnessContext.current.with(
                \.device,
                DeviceSettings(microphone: MicrophoneSettings(source: .file(path: path), pacing: .fast))
            )
        ) {
            let engine = AVAudioEngine()
            engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
            #expect(throws: MicrophoneError.self) { try engine.start() }
        }
    }

    @Test func aSendableTapGetsReadOnlyBuffersAndASecondOneThrows() async throws {
        let directory = try TemporaryDirectory()
        let device = try Self.device(directory, seconds: 0.3, end: .stopEngine(afterSilence: 0))
        let frames = try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, device)) {
            () async throws -> [Int] in
            let engine = AVAudioEngine()
            let seen = Locked<[Int]>([])
            try engine.inputNode.installAudioTap(onBus: 0, bufferSize: 4_800, format: nil) { buffer, _ in
                seen.withLock { $0.append(Int(buffer.frameLength)) }
            }
            #expect(throws: (any Error).self) {
                try engine.inputNode.installAudioTap(onBus: 0, bufferSize: 4_800, format: nil) { _, _ in }
            }
            var observer: NSObjectProtocol?  // removed once stopped, as above
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                observer = NotificationCenter.default.addObserver(
                    forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil
                ) { _ in done.resume() }
                do { try engine.start() } catch {
                    Issue.record("\(error)")
                    done.resume()
                }
            }
            observer.map(NotificationCenter.default.removeObserver)
            return seen.withLock { $0 }
        }
        #expect(frames == [4_800, 4_800, 4_800])
    }

    // Apple's precondition failures terminate the app; they must terminate here too.

    @Test func aSecondTapOnABusTerminatesWithApplesMessage() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            HarnessContext.$current.withValue(
                HarnessContext.current.with(\.device, DeviceSettings(microphone: MicrophoneSettings(source: .silence)))
            ) {
                let engine = AVAudioEngine()
                engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
                engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { _, _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("required condition is false: nullptr == Tap()"))
    }

    @Test func aTapAtAnotherSampleRateTerminatesWithApplesMessage() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            HarnessContext.$current.withValue(
                HarnessContext.current.with(\.device, DeviceSettings(microphone: MicrophoneSettings(source: .silence)))
            ) {
                let engine = AVAudioEngine()
                let sixteen = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)
                engine.inputNode.installTap(onBus: 0, bufferSize: 1024, format: sixteen) { _, _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("required condition is false: format.sampleRate == hwFormat.sampleRate"))
    }

    @Test func aTapInTheNoDeviceFormatTerminatesWithApplesMessage() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            HarnessContext.$current.withValue(
                HarnessContext.current.with(\.device, DeviceSettings(microphone: MicrophoneSettings(source: .none)))
            ) {
                let engine = AVAudioEngine()
                let input = engine.inputNode
                input.installTap(onBus: 0, bufferSize: 1024, format: input.outputFormat(forBus: 0)) { _, _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("IsFormatSampleRateAndChannelCountValid(format)"))
        #expect(stderr.contains("SPEECH_HARNESS_MICROPHONE"))
    }

    @Test func avAudioTimeConvertsBetweenHostAndSampleTime() {
        let anchor = AVAudioTime(hostTime: 2_000_000_000, sampleTime: 96_000, atRate: 48_000)
        let later = AVAudioTime(sampleTime: 144_000, atRate: 48_000).extrapolateTime(fromAnchor: anchor)
        #expect(later?.hostTime == 3_000_000_000 && later?.isHostTimeValid == true)
        let byHost = AVAudioTime(hostTime: 2_500_000_000).extrapolateTime(fromAnchor: anchor)
        #expect(byHost?.sampleTime == 120_000)
        #expect(AVAudioTime.seconds(forHostTime: AVAudioTime.hostTime(forSeconds: 1.25)) == 1.25)
    }
}
