import Foundation
import SpeechCore
import Testing
import VirtualDevice

@Suite struct DeviceContextTests {
    @Test func theDeviceComesFromTheContextsEnvironmentUntilOneIsSet() {
        var context = HarnessContext(
            environment: HarnessEnvironment([
                "SPEECH_HARNESS_OS_RELEASE": "26", "SPEECH_HARNESS_RECORD_PERMISSION": "denied",
            ]))
        #expect(context.device.osRelease == .release26)
        #expect(context.device.recordPermission == .denied)
        context.device = DeviceSettings(locale: "fr-FR")
        #expect(context.device.osRelease == .release27)
        HarnessContext.$current.withValue(context) {
            #expect(DeviceSettings.current.locale == "fr-FR")
            #expect(DeviceLocale.current.tag == "fr-FR")
        }
    }

    @Test func aValueTheDeviceCannotTakeReadsAsItsDefaultAndIsReportedByValidation() {
        let context = HarnessContext(environment: HarnessEnvironment(["SPEECH_HARNESS_ASSET_DOWNLOADS": "sometimes"]))
        #expect(context.device.assetDownloads == .immediate)
        #expect(throws: HarnessSettingsProblem.self) { try context.environment.validated() }
    }

    @Test func eachContextsLedgerKeepsItsOwnAnswers() {
        var context = HarnessContext.current
        context.device = DeviceSettings(recordPermission: .notDetermined)
        context.permissions = PermissionLedger()
        let answered = HarnessContext.$current.withValue(context) {
            HarnessContext.current.permissions.requestRecordPermission()
        }
        #expect(answered == .authorized)
        context.permissions = PermissionLedger()
        let fresh = HarnessContext.$current.withValue(context) {
            HarnessContext.current.permissions.recordPermission
        }
        #expect(fresh == .notDetermined)
    }
}
