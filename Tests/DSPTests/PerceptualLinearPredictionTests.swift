import Foundation
import TestSupport
import Testing

@testable import DSP

@Suite("Perceptual linear prediction")
struct PerceptualLinearPredictionTests {
    @Test(arguments: [0.9, -0.5, 0.3])
    func aFirstOrderProcessGivesItsOwnPredictorAndCepstrum(rho: Double) {
        // An AR(1) process x[n] = ρ x[n−1] + e[n] has autocorrelation ρᵏ (unit variance): its
        // predictor is 1 − ρ z⁻¹, its error 1 − ρ², and the cepstrum of 1/A(z) is ρⁿ/n.
        let order = 4
        let r = (0...order).map { pow(rho, Double($0)) }
        let (a, error) = PerceptualLinearPrediction.levinson(r, order: order)
        #expect(abs(a[1] + rho) < 1e-12)
        for k in 2...order { #expect(abs(a[k]) < 1e-12) }
        #expect(abs(error - (1 - rho * rho)) < 1e-12)
        let c = PerceptualLinearPrediction.cepstrum(predictor: a, error: error, count: 10)
        #expect(abs(c[0] - log(1 - rho * rho)) < 1e-12)
        for n in 1..<10 { #expect(abs(c[n] - pow(rho, Double(n)) / Double(n)) < 1e-12, "c\(n) = \(c[n])") }
    }

    @Test func aToneMovesTheModelsSpectralPeakOntoIt() {
        // The all-pole model's spectrum 1/|A(e^jω)|² over the filterbank's warped axis: a tone at
        // 500 Hz and one at 2500 Hz give peaks in the low and the high part of that axis.
        var configuration = FrontEndConfiguration()
        configuration.plpOrder = 8
        func peakPosition(_ frequency: Double) -> Double {
            var extractor = FeatureExtractor(sampleRate: 16_000, configuration: configuration)
            let frame = extractor.process(Signal.sine(frequency: frequency, sampleRate: 16_000, seconds: 0.3))[14]
            let plp = PerceptualLinearPrediction(bandCentres: extractor.bandCentres, order: 8)
            let r = plp.autocorrelation(logBands: frame.logMel)
            let (a, _) = PerceptualLinearPrediction.levinson(r, order: 8)
            let grid = (0...200).map { Double.pi * Double($0) / 200 }
            let response = grid.map { w -> Double in
                var re = 0.0, im = 0.0
                for (k, ak) in a.enumerated() {
                    re += ak * cos(w * Double(k))
                    im -= ak * sin(w * Double(k))
                }
                return 1 / (re * re + im * im)
            }
            return grid[response.indices.max { response[$0] < response[$1] }!] / Double.pi
        }
        let low = peakPosition(500), high = peakPosition(2_500)
        #expect(low < 0.4, "500 Hz peaks at \(low) of the axis")
        #expect(high > 0.6, "2500 Hz peaks at \(high) of the axis")
    }

    @Test func plpSetsAreFormatVersionTwoAndMFCCSetsStayVersionOne() throws {
        var set = DecoderTests.set(DecoderTests.words)
        let mfcc = try set.encoded()
        #expect(mfcc[4] == 1)
        set.frontEnd.plpOrder = 8
        let plp = try set.encoded()
        #expect(plp[4] == 2)
        #expect(try TemplateSet.decode(plp, name: "p.shdt").frontEnd.plpOrder == 8)
        #expect(try TemplateSet.decode(mfcc, name: "m.shdt").frontEnd.plpOrder == 0)
        var mislabelled = plp
        mislabelled[4] = 1
        #expect(
            throws: TemplateSetError.malformed(file: "p.shdt", reason: "a version-1 file cannot hold a PLP front end")
        ) {
            try TemplateSet.decode(mislabelled, name: "p.shdt")
        }
        set.frontEnd.plpOrder = 30
        #expect(throws: TemplateSetError.malformed(file: "p.shdt", reason: "PLP order 30 is outside 0...24")) {
            try TemplateSet.decode(try set.encoded(), name: "p.shdt")
        }
    }
}
