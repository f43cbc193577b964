import AVFoundation
import Foundation
import SpeechCore
import Testing
import VirtualDevice

/// Apps that capture with `AVCaptureSession` and an audio data output of their own: the virtual
/// microphone's audio reaches their delegate as sample buffers, in order, on their queue.
@Suite("AVCaptureSession on the virtual microphone")
struct CaptureSessionTests {
    static let device = DeviceSettings(
        microphone: MicrophoneSettings(source: .silence, pacing: .fast), recordPermission: .authorized)

    final class Collector: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
        let buffers = Locked<[CMSampleBuffer]>([])
        let enough: AsyncStream<Void>
        private let signal: AsyncStream<Void>.Continuation
        let wanted: Int

        init(wanted: Int) {
            self.wanted = wanted
            (enough, signal) = AsyncStream.makeStream(of: Void.self)
        }

        func captureOutput(
            _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
        ) {
            if buffers.withLock({
                $0.append(sampleBuffer)
                return $0.count
            }) == wanted {
                signal.finish()
            }
        }
    }

    @Test func theDelegateGetsTheMicrophonesAudioInOrder() async throws {
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device)) {
            let device = try #require(AVCaptureDevice.default(for: .audio))
            let session = AVCaptureSession()
            let output = AVCaptureAudioDataOutput()
            let collector = Collector(wanted: 5)
            let queue = DispatchQueue(label: "capture test")
            output.setSampleBufferDelegate(collector, queue: queue)
            #expect(output.sampleBufferDelegate === collector && output.sampleBufferCallbackQueue === queue)
            session.beginConfiguration()
            session.addInput(try AVCaptureDeviceInput(device: device))
            #expect(session.canAddOutput(output))
            session.addOutput(output)
            session.commitConfiguration()
            #expect(!session.canAddOutput(AVCaptureAudioDataOutput()), "a second output of the same kind")
            #expect(output.connection(with: .audio)?.isActive == true)
            let started = Locked(0)
            let observer = NotificationCenter.default.addObserver(
                forName: AVCaptureSession.didStartRunningNotification, object: session, queue: nil
            ) { _ in started.withLock { $0 += 1 } }
            defer { NotificationCenter.default.removeObserver(observer) }
            session.startRunning()
            for await _ in collector.enough {}
            session.stopRunning()
            let stopped = queue.sync { collector.buffers.withLock { $0.count } }
            #expect(started.withLock { $0 } == 1)
            let buffers = collector.buffers.withLock { $0 }
            var next = CMTime.zero
            for buffer in buffers.prefix(stopped) {
                let asbd = try #require(buffer.formatDescription?.audioStreamBasicDescription)
                #expect(asbd.mSampleRate == 48_000 && asbd.mChannelsPerFrame == 1 && asbd.mBitsPerChannel == 32)
                #expect(buffer.presentationTimeStamp == next && buffer.numSamples > 0)
                next = buffer.presentationTimeStamp + buffer.duration
            }
            // Nothing arrives once stopRunning() has returned and the queue has drained.
            #expect(queue.sync { collector.buffers.withLock { $0.count } } == stopped)
            session.removeOutput(output)
            #expect(output.connections.isEmpty)
        }
    }

    /// Without microphone access the device cannot be opened as an input.
    @Test func aDeniedMicrophoneCannotBeAnInput() throws {
        try HarnessContext.$current.withValue(
            HarnessContext.current.with(
                \.device,
                DeviceSettings(microphone: MicrophoneSettings(source: .silence), recordPermission: .denied)
            )
        ) {
            let device = try #require(AVCaptureDevice.default(for: .audio))
            do {
                _ = try AVCaptureDeviceInput(device: device)
                Issue.record("a denied microphone opened")
            } catch let error as NSError {
                #expect(error.domain == AVFoundationErrorDomain && error.code == -11_852)
            }
        }
    }
}
