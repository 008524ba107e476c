using BLite.Bson;

namespace BLite.Core.Query;

internal sealed class ComparisonLeaf(ComparisonOperator op, RawConstant constant) : LeafTest
{
    public override bool MatchesMissing => false;

    /// <summary>Values of another type class never satisfy a comparison (MongoDB type bracketing).</summary>
    public override bool Test(BsonType type, ReadOnlySpan<byte> value)
    {
        if (BsonValueComparer.TypeClass(type) != BsonValueComparer.TypeClass(constant.Type))
        {
            return false;
        }

        var order = RawValues.Compare(type, value, constant.Type, constant.Bytes);
        return op switch
        {
            ComparisonOperator.Eq => order == 0,
            ComparisonOperator.Gt => order > 0,
            ComparisonOperator.Gte => order >= 0,
            ComparisonOperator.Lt => order < 0,
            _ => order <= 0,
        };
    }
}

/// <summary><c>$eq: null</c>: a stored null or a path that reaches nothing.</summary>
internal sealed class NullLeaf : LeafTest
{
    public static readonly NullLeaf Instance = new();

    public override bool MatchesMissing => true;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value) => type == BsonType.Null;
}

internal sealed class NeverLeaf : LeafTest
{
    public static readonly NeverLeaf Instance = new();

    public override bool MatchesMissing => false;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value) => false;
}

internal sealed class ExistsLeaf : LeafTest
{
    public static readonly ExistsLeaf Instance = new();

    public override bool MatchesMissing => false;

    public override bool ExpandsArrays => false;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value) => true;
}

internal sealed class InLeaf(RawConstant[] candidates, bool matchesNull) : LeafTest
{
    public override bool MatchesMissing => matchesNull;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value)
    {
        if (type == BsonType.Null)
        {
            return matchesNull;
        }

        foreach (var candidate in candidates)
        {
            if (RawValues.AreEqual(type, value, candidate.Type, candidate.Bytes))
            {
                return true;
            }
        }

        return false;
    }
}

/// <summary>
/// Ordinal prefix / suffix / substring / equality tests on UTF-8 bytes (equivalent to ordinal tests
/// on the text); ignoring case, the stored string is decoded to UTF-16 on the stack first.
/// </summary>
internal sealed class StringLeaf : LeafTest
{
    private const int StackChars = 256;
    private readonly StringMatchKind _kind;
    private readonly byte[] _needle;
    private readonly string _text;
    private readonly bool _ignoreCase;

    private StringLeaf(StringMatchKind kind, string text, bool ignoreCase)
    {
        _kind = kind;
        _text = text;
        _needle = System.Text.Encoding.UTF8.GetBytes(text);
        _ignoreCase = ignoreCase;
    }

    public override bool MatchesMissing => false;

    public static LeafTest Create(StringMatchKind kind, BsonValue value, bool ignoreCase = false) =>
        value.Type == BsonType.String
            ? new StringLeaf(kind, value.AsString, ignoreCase)
            : NeverLeaf.Instance;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value)
    {
        if (type != BsonType.String)
        {
            return false;
        }

        var text = RawValues.StringBytes(value);
        if (!_ignoreCase)
        {
            return _kind switch
            {
                StringMatchKind.StartsWith => text.StartsWith(_needle),
                StringMatchKind.EndsWith => text.EndsWith(_needle),
                StringMatchKind.Equal => text.SequenceEqual(_needle),
                _ => text.IndexOf(_needle) >= 0,
            };
        }

        var length = System.Text.Encoding.UTF8.GetCharCount(text);
        char[]? rented = null;
        var chars = length <= StackChars ? stackalloc char[StackChars] : (rented = System.Buffers.ArrayPool<char>.Shared.Rent(length));
        try
        {
            var decoded = chars[..System.Text.Encoding.UTF8.GetChars(text, chars)];
            return _kind switch
            {
                StringMatchKind.StartsWith => decoded.StartsWith(_text, StringComparison.OrdinalIgnoreCase),
                StringMatchKind.EndsWith => decoded.EndsWith(_text, StringComparison.OrdinalIgnoreCase),
                StringMatchKind.Equal => decoded.Equals(_text, StringComparison.OrdinalIgnoreCase),
                _ => decoded.Contains(_text, StringComparison.OrdinalIgnoreCase),
            };
        }
        finally
        {
            if (rented is not null)
            {
                System.Buffers.ArrayPool<char>.Shared.Return(rented);
            }
        }
    }
}

/// <summary>Some element of the array reached satisfies the element filter (paths relative to the element).</summary>
internal sealed class ElemMatchLeaf(MatchNode elementFilter) : LeafTest
{
    public override bool MatchesMissing => false;

    public override bool ExpandsArrays => false;

    public override bool Test(BsonType type, ReadOnlySpan<byte> value)
    {
        if (type != BsonType.Array)
        {
            return false;
        }

        var reader = new BsonSpanReader(value);
        reader.ReadArrayStart();
        while (reader.TryReadItemHeader(out var itemType))
        {
            if (elementFilter.Matches(itemType, reader.ReadRawValue(itemType)))
            {
                return true;
            }
        }

        return false;
    }
}
