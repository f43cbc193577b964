// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LiveCapture",
    platforms: [.macOS(.v26), .iOS(.v26)],
    products: [.library(name: "LiveCapture", targets: ["LiveCapture"])],
    targets: [.target(name: "LiveCapture")]
)
