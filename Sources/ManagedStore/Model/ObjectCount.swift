/// "1 object", "2 objects": counts in messages read as a person would write them.
func objectCount(_ count: Int) -> String {
    count == 1 ? "1 object" : "\(count) objects"
}
