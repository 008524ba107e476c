using System.Buffers.Binary;
using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Core.CrashWorker;

/// <summary>
/// The workload shared by the crash worker and the crash tests. Transaction n stamps n into a
/// random subset of "data" pages, allocates fresh "extra" pages stamped n and frees old ones,
/// and records in the catalog page (page 1) n and, for every page, the number it must hold.
/// After any crash the catalog and the pages must agree exactly: a partly applied transaction
/// would leave some page with a number the catalog does not expect.
/// <code>
/// catalog payload: int64 last n | int32 data count D | D × (uint32 page, int64 n) | int32 extra count E | E × (uint32 page, int64 n)
/// data/extra page payload: int64 n at 0, int64 (n ^ page * K) at the end
/// </code>
/// </summary>
internal static class CommitLedger
{
    private const ulong Mix = 0x9E3779B97F4A7C15;
    private const int MaxExtras = 12;

    /// <summary>The first transaction: creates the data pages (does nothing when they exist).</summary>
    public static void Initialize(IPageWriter pages, int dataPages)
    {
        if (Load(pages).Data.Count > 0)
        {
            return;
        }

        var state = new LedgerState(0, [], []);
        for (var i = 0; i < dataPages; i++)
        {
            var page = pages.AllocatePage();
            Stamp(pages, page, 0);
            state.Data.Add((page, 0));
        }

        Store(pages, state);
    }

    /// <summary>Applies the next transaction's changes and returns its number (not yet committed).</summary>
    public static long WriteNext(IPageWriter pages, Random random)
    {
        var state = Load(pages);
        var n = state.Last + 1;
        for (var i = 0; i < state.Data.Count; i++)
        {
            if (i == 0 || random.Next(3) == 0)
            {
                Stamp(pages, state.Data[i].Page, n);
                state.Data[i] = (state.Data[i].Page, n);
            }
        }

        for (var i = random.Next(3); i > 0; i--)
        {
            var page = pages.AllocatePage();
            Stamp(pages, page, n);
            state.Extras.Add((page, n));
        }

        while (state.Extras.Count > MaxExtras || (state.Extras.Count > 0 && random.Next(4) == 0))
        {
            pages.FreePage(state.Extras[0].Page);
            state.Extras.RemoveAt(0);
        }

        Store(pages, new LedgerState(n, state.Data, state.Extras));
        return n;
    }

    /// <summary>Checks that every page holds what the catalog says; returns the last committed number.</summary>
    public static long Check(IPageReader pages)
    {
        var state = Load(pages);
        foreach (var (page, n) in state.Data)
        {
            Expect(pages, page, n, "data");
        }

        foreach (var (page, n) in state.Extras)
        {
            Expect(pages, page, n, "extra");
        }

        return state.Last;
    }

    public static LedgerState Load(IPageReader pages)
    {
        var payload = pages.ReadPage(PageIds.Catalog).Span;
        var last = BinaryPrimitives.ReadInt64LittleEndian(payload);
        var position = 8;
        var data = ReadList(payload, ref position);
        var extras = ReadList(payload, ref position);
        return new LedgerState(last, data, extras);
    }

    private static void Store(IPageWriter pages, LedgerState state)
    {
        var payload = pages.WritePage(PageIds.Catalog).Span;
        payload.Clear();
        BinaryPrimitives.WriteInt64LittleEndian(payload, state.Last);
        var position = 8;
        WriteList(payload, ref position, state.Data);
        WriteList(payload, ref position, state.Extras);
    }

    private static List<(uint Page, long N)> ReadList(ReadOnlySpan<byte> payload, ref int position)
    {
        var count = BinaryPrimitives.ReadInt32LittleEndian(payload[position..]);
        position += 4;
        var list = new List<(uint, long)>(count);
        for (var i = 0; i < count; i++)
        {
            list.Add((BinaryPrimitives.ReadUInt32LittleEndian(payload[position..]), BinaryPrimitives.ReadInt64LittleEndian(payload[(position + 4)..])));
            position += 12;
        }

        return list;
    }

    private static void WriteList(Span<byte> payload, ref int position, List<(uint Page, long N)> list)
    {
        BinaryPrimitives.WriteInt32LittleEndian(payload[position..], list.Count);
        position += 4;
        foreach (var (page, n) in list)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(payload[position..], page);
            BinaryPrimitives.WriteInt64LittleEndian(payload[(position + 4)..], n);
            position += 12;
        }
    }

    private static void Stamp(IPageWriter pages, uint page, long n)
    {
        var payload = pages.WritePage(page).Span;
        BinaryPrimitives.WriteInt64LittleEndian(payload, n);
        BinaryPrimitives.WriteUInt64LittleEndian(payload[^8..], (ulong)n ^ (page * Mix));
    }

    private static void Expect(IPageReader pages, uint page, long n, string kind)
    {
        var payload = pages.ReadPage(page).Span;
        var found = BinaryPrimitives.ReadInt64LittleEndian(payload);
        var tail = BinaryPrimitives.ReadUInt64LittleEndian(payload[^8..]);
        if (found != n || tail != ((ulong)n ^ (page * Mix)))
        {
            throw new InvalidDataException($"The ledger expects {kind} page {page} to hold transaction {n}, but it holds {found} (tail {tail:x}): a transaction was applied partially.");
        }
    }
}

internal sealed record LedgerState(long Last, List<(uint Page, long N)> Data, List<(uint Page, long N)> Extras);

/// <summary>Claims the ledger's pages for <see cref="StorageEngine.Verify"/>, so leaks and double use are caught too.</summary>
internal sealed class LedgerOwnership : IPageOwnershipSource
{
    public string Name => "ledger";

    public void ClaimPages(IPageReader snapshot, PageOwnershipCollector collector)
    {
        collector.Claim(PageIds.Catalog, "ledger catalog");
        var state = CommitLedger.Load(snapshot);
        foreach (var (page, _) in state.Data)
        {
            collector.Claim(page, "ledger data");
        }

        foreach (var (page, _) in state.Extras)
        {
            collector.Claim(page, "ledger extra");
        }
    }
}
