using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>One node of a prepared filter, tested against a raw value (a whole document at the root, an array element inside an element match).</summary>
internal abstract class MatchNode
{
    public abstract bool Matches(BsonType type, ReadOnlySpan<byte> value);
}

internal sealed class ConstantNode(bool result) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value) => result;
}

internal sealed class AndNode(MatchNode[] children) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value)
    {
        foreach (var child in children)
        {
            if (!child.Matches(type, value))
            {
                return false;
            }
        }

        return true;
    }
}

internal sealed class OrNode(MatchNode[] children) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value)
    {
        foreach (var child in children)
        {
            if (child.Matches(type, value))
            {
                return true;
            }
        }

        return false;
    }
}

internal sealed class NotNode(MatchNode inner) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value) => !inner.Matches(type, value);
}

internal sealed class FieldNode(CompiledPath path, LeafTest leaf) : MatchNode
{
    public override bool Matches(BsonType type, ReadOnlySpan<byte> value) => path.Matches(type, value, leaf);
}

/// <summary>A constant in raw form, so each document value compares against bytes, not objects.</summary>
internal readonly struct RawConstant
{
    private readonly byte[] _bytes;

    private RawConstant(BsonType type, byte[] bytes)
    {
        Type = type;
        _bytes = bytes;
    }

    public BsonType Type { get; }

    public ReadOnlySpan<byte> Bytes => _bytes;

    /// <summary>
    /// False when the constant is a document using a field name the dictionary has never seen:
    /// no stored document can equal it (and the query must not add names to the dictionary).
    /// </summary>
    public static bool TryCreate(BsonValue value, BsonFieldDictionary dictionary, out RawConstant constant)
    {
        if (!AllNamesKnown(value, dictionary))
        {
            constant = default;
            return false;
        }

        constant = new RawConstant(value.Type, RawValues.ToRaw(value, dictionary));
        return true;
    }

    private static bool AllNamesKnown(BsonValue value, BsonFieldDictionary dictionary)
    {
        switch (value.Type)
        {
            case BsonType.Document:
                foreach (var field in value.AsDocument)
                {
                    if (!dictionary.TryGetId(field.Key, out _) || !AllNamesKnown(field.Value, dictionary))
                    {
                        return false;
                    }
                }

                return true;
            case BsonType.Array:
                foreach (var item in value.AsArray)
                {
                    if (!AllNamesKnown(item, dictionary))
                    {
                        return false;
                    }
                }

                return true;
            default:
                return true;
        }
    }
}
