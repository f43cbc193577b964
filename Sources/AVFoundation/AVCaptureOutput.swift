@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import VirtualDevice

/// GCD's queue under the name Apple's capture pages give it.
// swift-format-ignore: TypeNamesShouldBeCapitalized
public typealias dispatch_queue_t = DispatchQueue

/// A source of media for a capture session.
open class AVCaptureInput: NSObject, @unchecked Sendable {}

/// A capture device as a session's input. On Linux the device is the virtual microphone.
open class AVCaptureDeviceInput: AVCaptureInput, @unchecked Sendable {
    public let device: AVCaptureDevice

    /// Throws when the app may not use the device (microphone access not authorized: AVFoundation's
    /// error -11852), as opening a device does on Apple's platforms.
    public init(device: AVCaptureDevice) throws {
        guard AVCaptureDevice.authorizationStatus(for: .audio) == .authorized else {
            throw NSError(
                domain: AVFoundationErrorDomain, code: -11_852,
                userInfo: [NSLocalizedDescriptionKey: "the app is not authorized to use \(device.localizedName)"])
        }
        self.device = device
    }
}

/// A destination of a capture session's media.
open class AVCaptureOutput: NSObject, @unchecked Sendable {
    let linked = Locked<[AVCaptureConnection]>([])

    /// The connections the session formed to this output (none until it is in a session with an input).
    open var connections: [AVCaptureConnection] { linked.withLock { $0 } }

    /// The first connection carrying `mediaType`, if any.
    open func connection(with mediaType: AVMediaType) -> AVCaptureConnection? {
        connections.first { $0.mediaType == mediaType }
    }
}

/// The link between a session's input and one of its outputs.
open class AVCaptureConnection: NSObject, @unchecked Sendable {
    private let enabled = Locked(true)
    let mediaType: AVMediaType
    /// The output the connection feeds.
    public private(set) weak var output: AVCaptureOutput?

    init(output: AVCaptureOutput, mediaType: AVMediaType) {
        self.output = output
        self.mediaType = mediaType
    }

    /// Whether media flows through the connection.
    open var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }

    /// Whether the connection can carry media now (its output still exists).
    open var isActive: Bool { output != nil }
}

/// Receives the audio an `AVCaptureAudioDataOutput` captures.
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// One buffer of captured audio, on the output's callback queue (optional, as in Objective-C).
    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureAudioDataOutputSampleBufferDelegate {
    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {}
}

/// Hands captured audio to a delegate as sample buffers, one after another on a serial queue.
/// The virtual microphone's buffers arrive in its hardware format (Float32, deinterleaved, at its
/// rate and channel count), stamped on the session's capture clock, which counts from the first
/// start.
open class AVCaptureAudioDataOutput: AVCaptureOutput, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
    }
    private let delegation = Locked(Delegation())
    /// A delegate the output keeps alive itself (the input providers' own), with what to do when
    /// the output goes away.
    private let retained = Locked<(any AVCaptureAudioDataOutputSampleBufferDelegate, () -> Void)?>(nil)

    public override init() { super.init() }

    deinit { retained.withLock { $0 }?.1() }

    /// Sets the delegate (held weakly) and the serial queue its callbacks run on; a queue goes with
    /// a delegate, and nil goes with nil.
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?,
        queue sampleBufferCallbackQueue: dispatch_queue_t?
    ) {
        if sampleBufferDelegate != nil && sampleBufferCallbackQueue == nil {
            AVFoundationException.invalidArgument("a sample buffer delegate needs a callback queue")
        }
        delegation.withLock { $0 = Delegation(delegate: sampleBufferDelegate, queue: sampleBufferCallbackQueue) }
    }

    open var sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)? {
        delegation.withLock { $0.delegate }
    }

    open var sampleBufferCallbackQueue: dispatch_queue_t? { delegation.withLock { $0.queue } }

    /// Harness extra for the input providers: a delegate the output holds strongly for as long as
    /// it exists, and `ended`, called when the output goes away.
    @_spi(Harness) public func retain(
        _ delegate: any AVCaptureAudioDataOutputSampleBufferDelegate, ended: @escaping () -> Void
    ) {
        retained.withLock { $0 = (delegate, ended) }
    }

    /// One captured buffer, from the session's capture thread: made a sample buffer and handed to
    /// the delegate on its queue.
    func deliver(_ captured: CapturedBuffer, sampleRate: Double, through connection: AVCaptureConnection) {
        guard connection.isEnabled else { return }
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue, let sample = Self.sampleBuffer(captured, sampleRate: sampleRate) else { return }
        // Delegates are called on their own serial queue only, as on Apple's platforms.
        nonisolated(unsafe) let target = delegate
        queue.async { target.captureOutput(self, didOutput: sample, from: connection) }
    }

    static func sampleBuffer(_ captured: CapturedBuffer, sampleRate: Double) -> CMSampleBuffer? {
        let frames = captured.channels.first?.count ?? 0
        guard frames > 0,
            let format = AVAudioFormat(
                standardFormatWithSampleRate: sampleRate, channels: AVAudioChannelCount(captured.channels.count))
        else { return nil }
        // The standard format's layout: each channel's Float32 samples, one channel after another.
        var bytes = Data(capacity: frames * MemoryLayout<Float>.size * captured.channels.count)
        for channel in captured.channels { channel.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        guard
            let sample = try? CMSampleBuffer(
                dataBuffer: CMReadOnlyDataBlockBuffer(bytes).withUnsafeBlockBuffer { $0 },
                formatDescription: format.formatDescription, numSamples: frames,
                presentationTimeStamp: CMTime(sampleIndex: captured.sampleTime, sampleRate: sampleRate),
                packetDescriptions: [])
        else { return nil }
        // The fast-paced microphone waits for this audio to be consumed, or let go of.
        sample.harnessAttachments = captured.lease.map { [$0] } ?? []
        return sample
    }
}

/// AVFoundation's exceptions for broken preconditions: the message, then the process ends, as an
/// uncaught Objective-C exception ends an app.
enum AVFoundationException {
    static func invalidArgument(_ reason: String) -> Never {
        FileHandle.standardError.write(
            Data(
                "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '\(reason)'\n".utf8
            ))
        abort()
    }
}
