using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// Reads the values at a few field paths straight from a raw C-BSON document, for projections
/// that need only those fields: nothing else is decoded (a string is decoded only when its path
/// is projected), and the documents on the way are walked, not built. A path follows documents
/// only; one that is absent, or meets an array or a scalar on the way, reads as null.
/// </summary>
public sealed class FieldProjection
{
    private readonly CompiledPath[] _paths;
    private readonly BsonFieldDictionary _dictionary;

    public FieldProjection(IReadOnlyList<FieldPath> fields, BsonFieldDictionary dictionary)
    {
        ArgumentNullException.ThrowIfNull(fields);
        ArgumentNullException.ThrowIfNull(dictionary);
        Fields = fields;
        _dictionary = dictionary;
        _paths = new CompiledPath[fields.Count];
        for (var i = 0; i < _paths.Length; i++)
        {
            _paths[i] = new CompiledPath(fields[i], dictionary);
        }
    }

    public IReadOnlyList<FieldPath> Fields { get; }

    /// <summary>Fills <paramref name="values"/> (one slot per field) from <paramref name="document"/>.</summary>
    public void Read(ReadOnlySpan<byte> document, Span<BsonValue> values)
    {
        if (values.Length < _paths.Length)
        {
            throw new ArgumentException($"{_paths.Length} values are read, the span holds {values.Length}.", nameof(values));
        }

        for (var i = 0; i < _paths.Length; i++)
        {
            values[i] = ReadField(document, i);
        }
    }

    /// <summary>The value at <see cref="Fields"/>[<paramref name="index"/>] in <paramref name="document"/>.</summary>
    public BsonValue ReadField(ReadOnlySpan<byte> document, int index) =>
        _paths[index].TryLocateSingle(_dictionary, BsonType.Document, document, out var type, out var raw)
            ? RawValues.ToBsonValue(type, raw, _dictionary)
            : BsonValue.Null;

    /// <summary>The fields as Explain prints them: <c>_id, status, customer.billingAddress.city</c>.</summary>
    public static string Describe(IReadOnlyList<FieldPath> fields) => string.Join(", ", fields.Select(f => f.IsSelf ? "$" : f.Path));
}
