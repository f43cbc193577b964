// What the sample's Helpers.swift gives the four files run here, written again without its views:
// the error cases the transcriber throws, the microphone permission check and the recording's
// writer.
import AVFoundation
import Foundation

public enum TranscriptionError: Error {
    case couldNotDownloadModel
    case failedToSetupRecognitionStream
    case invalidAudioDataType
    case localeNotSupported
    case noInternetForModelDownload
    case audioFilePathNotFound
}

extension Recorder {
    /// Microphone access, asked for when the user has not decided (macOS's way, as the sample does).
    func isAuthorized() async -> Bool {
        switch AVCaptureDevice.authorizationStatus(for: .audio) {
        case .authorized: true
        default: await AVCaptureDevice.requestAccess(for: .audio)
        }
    }

    func writeBufferToDisk(buffer: AVAudioPCMBuffer) {
        do { try file?.write(from: buffer) } catch { print("could not write the recording: \(error)") }
    }
}
