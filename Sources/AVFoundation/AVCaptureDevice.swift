import Foundation
import VirtualDevice

/// A kind of media a capture device records.
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let audio = AVMediaType("soun")
    public static let video = AVMediaType("vide")
}

/// Whether the user lets the app capture a kind of media.
public enum AVAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}

/// A capture device. On Linux there is one: the virtual microphone, whose permission is the same
/// record permission `AVAudioApplication` and `AVAudioSession` report (`SPEECH_HARNESS_RECORD_PERMISSION`),
/// so the macOS way of asking (`requestAccess(for: .audio)`) and the iOS way agree. There is no
/// camera: video reports `.restricted`, and asking for it is refused.
open class AVCaptureDevice: NSObject, @unchecked Sendable {
    public let uniqueID: String
    public let localizedName: String
    private let mediaType: AVMediaType

    private init(uniqueID: String, localizedName: String, mediaType: AVMediaType) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.mediaType = mediaType
    }

    /// The virtual microphone for `.audio` when the device has one (`SPEECH_HARNESS_MICROPHONE`
    /// is not `none`); nil for video.
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? {
        guard mediaType == .audio, DeviceSettings.current.microphone.source != .none else { return nil }
        return AVCaptureDevice(
            uniqueID: "SpeechHarness.VirtualMicrophone", localizedName: "Virtual Microphone", mediaType: .audio)
    }

    open func hasMediaType(_ mediaType: AVMediaType) -> Bool { mediaType == self.mediaType }

    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        guard mediaType == .audio else { return .restricted }
        return AVAuthorizationStatus(HarnessContext.current.permissions.recordPermission)
    }

    /// Asks for access; the handler gets the answer on another thread, as on Apple's platforms.
    open class func requestAccess(
        for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void
    ) {
        let granted = mediaType == .audio && HarnessContext.current.permissions.requestRecordPermission() == .authorized
        DispatchQueue.global().async { handler(granted) }
    }

    open class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        mediaType == .audio && HarnessContext.current.permissions.requestRecordPermission() == .authorized
    }
}

extension AVAuthorizationStatus {
    init(_ state: PermissionState) {
        switch state {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorized: self = .authorized
        }
    }
}
