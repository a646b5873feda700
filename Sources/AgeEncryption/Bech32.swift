/// Bech32 (BIP 173) as age uses it for keys: no limit on the length, one case throughout, the
/// checksum over the lowercase text. Framing only; no cryptography.
enum Bech32 {
    private static let alphabet = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)
    private static let values: [UInt8: UInt8] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, UInt8($0)) })
    private static let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]

    /// `bytes` under human-readable part `prefix`, in lowercase.
    static func encode(prefix: String, _ bytes: [UInt8]) -> String {
        let hrp = Array(prefix.lowercased().utf8)
        let groups = regroup(bytes, from: 8, to: 5)
        let data = groups.output + (groups.leftoverBits > 0 ? [UInt8(groups.leftover)] : [])
        let check = polymod(expand(hrp) + data + [0, 0, 0, 0, 0, 0]) ^ 1
        let checksum = (0..<6).map { UInt8((check >> (5 * (5 - UInt32($0)))) & 31) }
        return String(decoding: hrp + [UInt8(ascii: "1")] + (data + checksum).map { alphabet[Int($0)] }, as: UTF8.self)
    }

    /// The prefix (lowercased) and bytes of `text`, or nil when it is not valid Bech32.
    static func decode(_ text: String) -> (prefix: String, bytes: [UInt8])? {
        let utf8 = Array(text.utf8)
        guard utf8.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { return nil }
        let hasLower = utf8.contains { $0 >= 97 && $0 <= 122 }, hasUpper = utf8.contains { $0 >= 65 && $0 <= 90 }
        guard !(hasLower && hasUpper) else { return nil }
        let lower = Array(text.lowercased().utf8)
        guard let separator = lower.lastIndex(of: UInt8(ascii: "1")), separator > 0, lower.count - separator > 6 else { return nil }
        let hrp = Array(lower[..<separator])
        var data: [UInt8] = []
        for character in lower[(separator + 1)...] {
            guard let value = values[character] else { return nil }
            data.append(value)
        }
        guard polymod(expand(hrp) + data) == 1 else { return nil }
        let bytes = regroup(Array(data.dropLast(6)), from: 5, to: 8)
        // Decoding adds no padding: leftover bits must be fewer than a group and all zero.
        guard bytes.leftoverBits < 5, bytes.leftover == 0 else { return nil }
        return (String(decoding: hrp, as: UTF8.self), bytes.output)
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        var check: UInt32 = 1
        for value in values {
            let top = check >> 25
            check = (check & 0x1ff_ffff) << 5 ^ UInt32(value)
            for bit in 0..<5 where (top >> bit) & 1 == 1 { check ^= generator[bit] }
        }
        return check
    }

    /// Regroups bits `from` at a time into groups of `to`. A last partial group is not in
    /// `output`: it is returned apart (its size, and its value padded with zero bits), for an
    /// encoder to append and a decoder to check.
    private static func regroup(_ input: [UInt8], from: Int, to: Int) -> (output: [UInt8], leftoverBits: Int, leftover: Int) {
        var accumulator = 0, bits = 0
        var output: [UInt8] = []
        let mask = (1 << to) - 1
        for value in input {
            accumulator = (accumulator << from) | Int(value)
            bits += from
            while bits >= to {
                bits -= to
                output.append(UInt8((accumulator >> bits) & mask))
            }
        }
        return (output, bits, bits > 0 ? (accumulator << (to - bits)) & mask : 0)
    }
}
