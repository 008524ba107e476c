using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Core.Query;
using BLite.Linq.Execution;

namespace BLite.Query;

/// <summary>
/// Reads the row of a pushed-down projection from a raw document with the generated mapper's typed
/// member readers (<see cref="IMemberReaderProvider"/>): the top-level members in one pass over the
/// document, each value read straight into its member type (no intermediate <see cref="BsonValue"/>,
/// a string decoded once), nested members by descending their path. Values the mapper has no
/// reader for (computed values, array aggregates, members of a hand-written mapper) are read by a
/// <see cref="FieldProjection"/> as before. Built once per projection shape; keeps no per-read state.
/// </summary>
internal sealed class ProjectedRowReader
{
    private const int MaxSinglePassSlots = BsonSpanReader.MaxLocatedFields;

    private readonly int _width;
    private readonly ushort[] _topIds;
    private readonly Slot[] _top;
    private readonly (MappedField Field, Slot Slot)[] _nested;
    private readonly Slot[] _members;
    private readonly int[] _computed;
    private readonly FieldProjection? _fallback;
    private readonly IReadOnlyList<Type> _types;
    private readonly IReadOnlyList<string> _names;

    // The top-level members fill slots 0..n-1 in order (a projection of stored members usually
    // does): located straight into the caller's slots, without a second buffer and a copy.
    private readonly bool _topInSlotOrder;

    private ProjectedRowReader(int width, List<(ushort Id, Slot Slot)> top, List<(MappedField, Slot)> nested, List<int> computed,
        FieldProjection? fallback, IReadOnlyList<Type> types, IReadOnlyList<string> names)
    {
        _width = width;
        _topIds = top.Select(t => t.Id).ToArray();
        _top = top.Select(t => t.Slot).ToArray();
        _nested = nested.ToArray();
        _members = [.. _top, .. _nested.Select(n => n.Slot)];
        _computed = computed.ToArray();
        _fallback = fallback;
        _types = types;
        _names = names;
        _topInSlotOrder = _top.Length > 0 && _top.Select((slot, k) => slot.Index == k).All(inOrder => inOrder);
    }

    /// <summary>A reader for <paramref name="values"/>, or null when the mapper emits no member readers (a hand-written mapper): the caller keeps the <see cref="FieldProjection"/> path.</summary>
    public static ProjectedRowReader? TryCreate<TId, T>(IDocumentMapper<TId, T> mapper, IReadOnlyList<ValueExpression> values, IReadOnlyList<Type> types,
        IReadOnlyList<string> names, BsonFieldDictionary dictionary, IReadOnlyList<BsonValue>? parameters)
        where T : class
    {
        if (mapper is not IMemberReaderProvider provider)
        {
            return null;
        }

        var top = new List<(ushort, Slot)>();
        var nested = new List<(MappedField, Slot)>();
        var computed = new List<int>();
        for (var i = 0; i < values.Count; i++)
        {
            if (values[i] is FieldValue field && FindField(mapper, field.Path.Path) is { } mapped && provider.GetMemberReader(mapped.MemberPath) is { } reader)
            {
                var slot = new Slot(i, reader, types[i], mapped.MemberPath);
                if (mapped.FieldIds.Length == 1 && top.Count < MaxSinglePassSlots)
                {
                    top.Add((mapped.FieldIds[0], slot));
                }
                else
                {
                    nested.Add((mapped, slot));
                }
            }
            else
            {
                computed.Add(i);
            }
        }

        var fallback = computed.Count == 0 ? null : new FieldProjection(values, dictionary, parameters);
        return new ProjectedRowReader(values.Count, top, nested, computed, fallback, types, names);
    }

    /// <summary>The mapper's single-valued field stored at <paramref name="storedPath"/>, or null.</summary>
    internal static MappedField? FindField<TId, T>(IDocumentMapper<TId, T> mapper, string storedPath)
        where T : class
    {
        foreach (var field in mapper.Fields)
        {
            if (!field.IsMultiValued && string.Equals(field.FieldPath, storedPath, StringComparison.Ordinal))
            {
                return field;
            }
        }

        return null;
    }

    /// <summary>The number of slots (projected values) in a row.</summary>
    public int Width => _width;

    /// <summary>True when every slot is a stored member with a typed reader (nothing is computed).</summary>
    public bool ReadsOnlyMembers => _computed.Length == 0;

    /// <summary>The field id of <paramref name="slot"/> when it is a top-level member, which one walk over the document locates; otherwise null.</summary>
    public ushort? TopLevelFieldIdAt(int slot)
    {
        for (var k = 0; k < _top.Length; k++)
        {
            if (_top[k].Index == slot)
            {
                return _topIds[k];
            }
        }

        return null;
    }

    /// <summary>The typed reader and member path of <paramref name="slot"/>, or null for a computed slot.</summary>
    public (MemberReader Reader, string MemberPath)? MemberAt(int slot)
    {
        foreach (var candidate in _members)
        {
            if (candidate.Index == slot)
            {
                return (candidate.Reader, candidate.MemberPath);
            }
        }

        return null;
    }

    /// <summary>The row: one value per projected slot, each converted to the type the selector reads it as.</summary>
    public object?[] Read(ReadOnlySpan<byte> document)
    {
        var row = new object?[_width];
        if (_top.Length > 0)
        {
            ReadTopLevel(document, row);
        }

        foreach (var (field, slot) in _nested)
        {
            if (field.TryLocate(document, out var type, out var raw) && type != BsonType.Null)
            {
                var reader = new BsonSpanReader(raw);
                row[slot.Index] = Convert(slot.Reader.ReadBoxed(ref reader, type), slot);
            }
            else
            {
                row[slot.Index] = Convert(null, slot);
            }
        }

        foreach (var index in _computed)
        {
            row[index] = BsonClrConverter.ToClr(_fallback!.ReadValue(document, index), _types[index], _names[index]);
        }

        return row;
    }

    /// <summary>One walk over the document's fields to find the wanted members, then each decoded where it starts.</summary>
    private void ReadTopLevel(ReadOnlySpan<byte> document, object?[] row)
    {
        Span<int> found = stackalloc int[_top.Length];
        Span<BsonType> types = stackalloc BsonType[_top.Length];
        BsonSpanReader.LocateFields(document, _topIds, found, types);
        var strings = BsonStringTable.ForCurrentThread;
        for (var k = 0; k < _top.Length; k++)
        {
            var slot = _top[k];
            if (found[k] < 0 || types[k] == BsonType.Null)
            {
                // Members the document does not hold read as null, as a path that reaches nothing does.
                row[slot.Index] = Convert(null, slot);
                continue;
            }

            var reader = new BsonSpanReader(document[found[k]..], strings);
            row[slot.Index] = Convert(slot.Reader.ReadBoxed(ref reader, types[k]), slot);
        }
    }

    /// <summary>
    /// Where each member slot's value starts in <paramref name="document"/> and its type, without
    /// decoding it; -1 for a member that is null or missing, as a path that reaches nothing reads
    /// null. Computed slots are left at -1.
    /// </summary>
    public void Locate(ReadOnlySpan<byte> document, Span<int> offsets, Span<BsonType> types)
    {
        if (_topInSlotOrder)
        {
            BsonSpanReader.LocateFields(document, _topIds, offsets, types);
            for (var k = 0; k < _top.Length; k++)
            {
                if (offsets[k] >= 0 && types[k] == BsonType.Null)
                {
                    offsets[k] = -1;
                }
            }

            offsets[_top.Length..].Fill(-1);
        }
        else
        {
            offsets.Fill(-1);
            if (_top.Length > 0)
            {
                LocateTopLevel(document, offsets, types);
            }
        }

        foreach (var (field, slot) in _nested)
        {
            if (field.TryLocate(document, out var type, out var raw) && type != BsonType.Null)
            {
                offsets[slot.Index] = (int)Unsafe.ByteOffset(ref MemoryMarshal.GetReference(document), ref MemoryMarshal.GetReference(raw));
                types[slot.Index] = type;
            }
        }
    }

    /// <summary>As <see cref="ReadTopLevel"/>, recording where each wanted member starts instead of decoding it.</summary>
    private void LocateTopLevel(ReadOnlySpan<byte> document, Span<int> offsets, Span<BsonType> types)
    {
        Span<int> found = stackalloc int[_top.Length];
        Span<BsonType> foundTypes = stackalloc BsonType[_top.Length];
        BsonSpanReader.LocateFields(document, _topIds, found, foundTypes);
        for (var k = 0; k < _top.Length; k++)
        {
            if (found[k] >= 0 && foundTypes[k] != BsonType.Null)
            {
                offsets[_top[k].Index] = found[k];
                types[_top[k].Index] = foundTypes[k];
            }
        }
    }

    private object? Convert(object? value, Slot slot)
    {
        if (value is null)
        {
            if (slot.Target.IsValueType && slot.NullableOf is null)
            {
                throw new InvalidOperationException($"The stored field '{_names[slot.Index]}' is null or missing, so it cannot be read as {slot.Target.Name}.");
            }

            return null;
        }

        // The selector may read the member at another type than it is declared (an enum as its number, an int widened).
        return value.GetType() == (slot.NullableOf ?? slot.Target) ? value : ValueConversion.Convert(value, slot.Target, isChecked: false);
    }

    private sealed class Slot(int index, MemberReader reader, Type target, string memberPath)
    {
        public string MemberPath { get; } = memberPath;

        public int Index { get; } = index;

        public MemberReader Reader { get; } = reader;

        public Type Target { get; } = target;

        public Type? NullableOf { get; } = Nullable.GetUnderlyingType(target);
    }
}
