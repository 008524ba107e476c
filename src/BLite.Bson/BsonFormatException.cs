namespace BLite.Bson;

/// <summary>
/// Malformed C-BSON bytes or malformed JSON text. <see cref="Offset"/> is the byte offset (C-BSON)
/// or character offset (JSON) where the problem was found.
/// </summary>
public sealed class BsonFormatException : BLiteException
{
    public BsonFormatException(string message, long offset)
        : base($"{message} (at offset {offset}).")
    {
        Offset = offset;
    }

    public BsonFormatException(string message, long offset, Exception innerException)
        : base($"{message} (at offset {offset}).", innerException)
    {
        Offset = offset;
    }

    /// <summary>Where in the input the problem was found.</summary>
    public long Offset { get; }
}
