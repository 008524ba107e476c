namespace BLite.Bson.Mapping;

/// <summary>
/// Marks a mapper emitted by the BLite source generator. Its output is well formed by construction
/// (every header is followed by the value its typed writer call pairs with, and BsonSpanWriter keeps
/// lengths and depth), so the typed API stores its bytes without the engine's validation walk.
/// A hand-written mapper must not carry it: its bytes are validated like any other caller's.
/// </summary>
public interface IGeneratedDocumentMapper
{
}
