import AVFoundation
import SpeechCore
import Testing
import VirtualDevice

/// The macOS way of asking for the microphone answers from the same permission as AVAudioApplication.
@Suite("AVCaptureDevice permissions")
struct CaptureDeviceTests {
    static func device(
        _ permission: PermissionState, microphone: MicrophoneSettings.Source = .silence
    ) -> DeviceSettings {
        DeviceSettings(microphone: MicrophoneSettings(source: microphone), recordPermission: permission)
    }

    @Test func aFirstRequestIsAnsweredAndRemembered() async {
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, PermissionLedger())) {
            await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device(.notDetermined)))
            {
                #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .notDetermined)
                #expect(AVAudioApplication.shared.recordPermission == .undetermined)
                #expect(await AVCaptureDevice.requestAccess(for: .audio))
                #expect(AVCaptureDevice.authorizationStatus(for: .audio) == .authorized)
                #expect(AVAudioApplication.shared.recordPermission == .granted)
            }
        }
    }

    @Test(arguments: [(PermissionState.denied, AVAuthorizationStatus.denied), (.restricted, .restricted)])
    func aRefusalStands(permission: PermissionState, status: AVAuthorizationStatus) async {
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.permissions, PermissionLedger())) {
            await HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device(permission))) {
                #expect(AVCaptureDevice.authorizationStatus(for: .audio) == status)
                let granted = await withCheckedContinuation { done in
                    AVCaptureDevice.requestAccess(for: .audio) { done.resume(returning: $0) }
                }
                #expect(!granted)
                #expect(AVCaptureDevice.authorizationStatus(for: .audio) == status)
            }
        }
    }

    @Test func thereIsAMicrophoneOnlyWhenTheDeviceHasOne() async {
        HarnessContext.$current.withValue(HarnessContext.current.with(\.device, Self.device(.authorized))) {
            let microphone = AVCaptureDevice.default(for: .audio)
            #expect(microphone?.hasMediaType(.audio) == true && microphone?.localizedName == "Virtual Microphone")
            #expect(AVCaptureDevice.default(for: .video) == nil)
            #expect(AVCaptureDevice.authorizationStatus(for: .video) == .restricted)
        }
        HarnessContext.$current.withValue(
            HarnessContext.current.with(\.device, Self.device(.authorized, microphone: .none))
        ) {
            #expect(AVCaptureDevice.default(for: .audio) == nil)
        }
        #expect(await !AVCaptureDevice.requestAccess(for: .video))
    }
}
