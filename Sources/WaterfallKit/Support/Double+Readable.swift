extension Double {
    /// The number as people write it: no trailing ".0", at most two decimals.
    var readable: String {
        guard abs(self) < 1e15 else { return String(self) }  // also keeps ×100 below infinity
        let hundredths = (self * 100).rounded() / 100
        if hundredths == hundredths.rounded(), abs(hundredths) < 1e15 { return String(Int(hundredths)) }
        return String(hundredths)
    }
}
