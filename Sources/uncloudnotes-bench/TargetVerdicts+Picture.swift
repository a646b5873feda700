import Foundation

extension TargetVerdicts {
    static let pictureLimit = 0.150

    /// Issue 26: a 12 MP JPEG on screen within 150 ms of selecting its note, per protocol.
    func picture() -> [String] {
        guard let picture = report.picture, !picture.protocols.isEmpty else {
            return ["Time to picture (issue 26): not measured in this run."]
        }
        let megapixels = Double(picture.width * picture.height) / 1_000_000
        return picture.protocols.map { timing in
            "Time to picture of a \(picture.width)x\(picture.height) JPEG (\(String(format: "%.0f", megapixels)) MP) with \(timing.name) within 150 ms: "
                + "\(BenchReport.time(timing.toPicture.median)) (slowest run \(BenchReport.time(timing.toPicture.max))), \(verdict(timing.toPicture.median <= Self.pictureLimit))."
        }
    }
}
