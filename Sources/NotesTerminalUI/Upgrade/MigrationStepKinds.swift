/// What `?` shows on the migration screen: the kinds of steps a plan is made of, in a few lines,
/// as the chapter explains them.
enum MigrationStepKinds {
    static let lines = [
        "Kinds of steps (? hides this):",
        "• in place: a lightweight change Core Data infers (an attribute added, renamed, made optional); "
            + "done with SQL inside the store in one transaction, as fast for a million notes as for ten.",
        "• mapping model: a change Core Data cannot infer (v2 → v3 moves the image to a new Attachment entity); "
            + "entity mappings copy every object into a new file, then link relationships and validate.",
        "• custom policy: an entity mapping whose values Swift code computes (v3 → v4 makes each ImageAttachment "
            + "with the image's width, height and a caption from the note).",
        "Steps whose mappings compose run as one pass: the versions between are never written.",
    ]
}
