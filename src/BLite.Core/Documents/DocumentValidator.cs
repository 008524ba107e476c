using BLite.Bson;

namespace BLite.Core.Documents;

/// <summary>
/// Walks a whole C-BSON document before it is stored, so malformed bytes are refused with a
/// <see cref="BsonFormatException"/> before anything is written, instead of poisoning later reads.
/// </summary>
internal static class DocumentValidator
{
    public static void Validate(ReadOnlySpan<byte> document)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        WalkDocument(ref reader);
        if (reader.Position != document.Length)
        {
            throw new BsonFormatException($"The document header says {document.Length} bytes but its content ends earlier", reader.Position);
        }
    }

    private static void WalkDocument(ref BsonSpanReader reader)
    {
        while (reader.TryReadFieldHeader(out var type, out _))
        {
            WalkValue(ref reader, type);
        }
    }

    private static void WalkValue(ref BsonSpanReader reader, BsonType type)
    {
        switch (type)
        {
            case BsonType.Document:
                reader.ReadDocumentStart();
                WalkDocument(ref reader);
                break;
            case BsonType.Array:
                reader.ReadArrayStart();
                while (reader.TryReadItemHeader(out var itemType))
                {
                    WalkValue(ref reader, itemType);
                }

                break;
            default:
                reader.SkipValue(type);
                break;
        }
    }
}
