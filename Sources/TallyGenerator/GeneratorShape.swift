/// The shape of the data ``DataGenerator`` writes: how its rows spread over
/// couples, users and challenges. ``GeneratorScale`` says how much.
///
/// A benchmark run on one shape can be tuned to it; running every shape keeps
/// a change honest (`make bench SHAPE=skewed`).
///
/// - `default`: the historical generator, byte for byte (`sample-data/` is its
///   `small` scale).
/// - `studio`: a studio's real export at `medium`: 50,000 couples of 2–4
///   members (about 2.1 on average), ~1.07M expense rows (~5% older versions),
///   ~100k settlements, ~10k agreements; 200,000 swipers and 10M swipes; ~4,000
///   challenges, ~38,000 memberships, ~1M check-ins; 5,000 health users (one
///   row a day); ~2M subscription events; January to mid-July, swipes as plain
///   NDJSON (no gzip).
/// - `skewed`: few couples, users and challenges carry huge volume: at `medium`
///   a couple with 50,000 expenses, a challenge of 10,000 members and a swiper
///   with 1M swipes, beside ordinary ones.
/// - `many-couples`: 400,000 couples of 2 members with a few expenses each.
///
/// For every shape but `default`, `small` is 1/100 of `medium` and `large` 5×
/// (`tally generate --shape studio --scale small` writes a few MB).
public enum GeneratorShape: String, CaseIterable, Sendable {
    case `default`
    case studio
    case skewed
    case manyCouples = "many-couples"
}
