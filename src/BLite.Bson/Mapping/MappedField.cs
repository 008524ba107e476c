namespace BLite.Bson.Mapping;

/// <summary>
/// One mapped member path of a document type, with its field ids resolved for one database. The
/// query engine uses it to evaluate predicates on raw C-BSON bytes (push-down) without
/// deserializing the document. Paths through collections are listed too (e.g.
/// <c>Lines.Sku</c>); they are multi-valued, see <see cref="ArraySegment"/>.
/// </summary>
public sealed class MappedField
{
    private readonly ushort[] _fieldIds;

    public MappedField(string memberPath, string fieldPath, ushort[] fieldIds, BsonType bsonType, bool isNullable, int arraySegment, BsonType? elementType = null)
    {
        ArgumentNullException.ThrowIfNull(memberPath);
        ArgumentNullException.ThrowIfNull(fieldPath);
        ArgumentNullException.ThrowIfNull(fieldIds);
        if (fieldIds.Length == 0)
        {
            throw new ArgumentException("A path has at least one segment.", nameof(fieldIds));
        }

        if (arraySegment < -1 || arraySegment >= fieldIds.Length - 1)
        {
            throw new ArgumentOutOfRangeException(nameof(arraySegment), arraySegment, "Must be -1 or the index of a segment before the last.");
        }

        MemberPath = memberPath;
        FieldPath = fieldPath;
        _fieldIds = fieldIds;
        BsonType = bsonType;
        IsNullable = isNullable;
        ArraySegment = arraySegment;
        ElementType = elementType;
    }

    /// <summary>C# member names joined with '.', e.g. <c>Customer.BillingAddress.City</c>.</summary>
    public string MemberPath { get; }

    /// <summary>Stored field names joined with '.', e.g. <c>Customer.BillingAddress.City</c> or <c>_id</c>.</summary>
    public string FieldPath { get; }

    /// <summary>The field id of each segment, in this database.</summary>
    public ReadOnlySpan<ushort> FieldIds => _fieldIds;

    /// <summary>The type the generated serializer stores for this member when it is not null.</summary>
    public BsonType BsonType { get; }

    /// <summary>The item type when <see cref="BsonType"/> is <see cref="BsonType.Array"/>.</summary>
    public BsonType? ElementType { get; }

    /// <summary>Whether the member can be stored as <see cref="BsonType.Null"/>.</summary>
    public bool IsNullable { get; }

    /// <summary>
    /// -1 for a single-valued path. Otherwise the index of the first segment whose value is an
    /// array the path goes through: the remaining segments apply to each item of that array.
    /// </summary>
    public int ArraySegment { get; }

    public bool IsMultiValued => ArraySegment >= 0;

    /// <summary>
    /// Finds this single-valued field in a whole document. Returns false when the field, or a
    /// document on its way, is absent or not a document, or when the path is multi-valued.
    /// </summary>
    /// <param name="document">A whole C-BSON document.</param>
    /// <param name="type">The stored type (can be <see cref="BsonType.Null"/>).</param>
    /// <param name="value">The value's bytes, as <see cref="BsonSpanReader.ReadRawValue"/> returns them.</param>
    public bool TryLocate(ReadOnlySpan<byte> document, out BsonType type, out ReadOnlySpan<byte> value)
    {
        var reader = new BsonSpanReader(document);
        if (!TrySeek(ref reader, out type))
        {
            value = default;
            return false;
        }

        value = reader.ReadRawValue(type);
        return true;
    }

    /// <summary>Reads this single-valued field as a <see cref="BsonValue"/>; see <see cref="TryLocate"/>.</summary>
    public bool TryReadValue(ReadOnlySpan<byte> document, BsonFieldDictionary fieldDictionary, out BsonValue value)
    {
        ArgumentNullException.ThrowIfNull(fieldDictionary);
        var reader = new BsonSpanReader(document);
        if (!TrySeek(ref reader, out var type))
        {
            value = default;
            return false;
        }

        value = BsonValue.ReadFrom(ref reader, type, fieldDictionary);
        return true;
    }

    /// <summary>Positions the reader on this field's value, descending one embedded document per segment.</summary>
    private bool TrySeek(ref BsonSpanReader reader, out BsonType type)
    {
        type = default;
        if (IsMultiValued)
        {
            return false;
        }

        reader.ReadDocumentStart();
        var last = _fieldIds.Length - 1;
        for (var segment = 0; ; segment++)
        {
            if (!reader.TryFindField(_fieldIds[segment], out type))
            {
                return false;
            }

            if (segment == last)
            {
                return true;
            }

            if (type != BsonType.Document)
            {
                return false;
            }

            reader.ReadDocumentStart();
        }
    }

    public override string ToString() => $"{MemberPath} ({FieldPath}: {BsonType})";
}
