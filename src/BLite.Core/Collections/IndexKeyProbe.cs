using BLite.Core.BTrees;
using BLite.Core.Collections.Indexes;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// The primary keys of the entries of a secondary index in a sequence of field-key ranges, as the
/// inner side of a join asks for them: one range per outer value, in ascending order. One
/// <see cref="BTreePathFinger"/> serves every range, so the next range's first entry is found by
/// climbing only as far as needed from the last one rather than from the root, and the index is
/// looked up in the catalog once, not once per range.
/// </summary>
/// <remarks>
/// <see cref="PrimaryKey"/> is valid until the next <see cref="MoveNext"/> or <see cref="Start"/>.
/// Ranges in any order give the same entries; ascending ones are merely cheaper.
/// </remarks>
internal sealed class IndexKeyProbe
{
    private readonly BTreePathFinger _entries;
    private readonly IPageReader _pages;
    private KeyRange _range = KeyRange.All;
    private ReadOnlyMemory<byte> _leaf;
    private int _index;
    private bool _onEntry;

    internal IndexKeyProbe(BTreePathFinger entries, IPageReader pages)
    {
        _entries = entries;
        _pages = pages;
    }

    /// <summary>The encoded primary key of the document the current entry belongs to.</summary>
    public ReadOnlySpan<byte> PrimaryKey =>
        SecondaryEntry.PrimaryKeyOf(BTreeNode.Key(_leaf.Span, _index), BTree.ReadValue(_pages, _leaf, _index).Span);

    /// <summary>Positions before the first entry whose field key lies in <paramref name="fieldKeyRange"/> (matched by prefix, as <see cref="RawCollection.ScanIndex"/> does).</summary>
    public void Start(KeyRange fieldKeyRange)
    {
        ArgumentNullException.ThrowIfNull(fieldKeyRange);
        _range = RawCollection.ToEntryRange(fieldKeyRange);
        _leaf = _entries.Seek(_range.HasLowerBound ? _range.LowerBound : default, out var index, out var found);
        _index = found && !_range.LowerInclusive ? index + 1 : index;
        _onEntry = false;
    }

    public bool MoveNext()
    {
        if (_leaf.IsEmpty)
        {
            return false;
        }

        if (_onEntry)
        {
            _index++;
        }

        while (_index >= BTreeNode.Count(_leaf.Span))
        {
            if (!_entries.NextLeaf(out _leaf))
            {
                return End();
            }

            _index = 0;
        }

        if (!_range.IsBelowUpper(BTreeNode.Key(_leaf.Span, _index)))
        {
            return End();
        }

        _onEntry = true;
        return true;
    }

    private bool End()
    {
        _leaf = default;
        _onEntry = false;
        return false;
    }
}
