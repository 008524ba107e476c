using BLite.Core.Diagnostics;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Random allocate / free / rollback / reopen sequences checked against a simple model (the set
/// of pages in use and what each holds); Verify with leak detection runs after every step, so the
/// free list can neither lose nor duplicate a page.
/// </summary>
public class FreeListModelTests
{
    [Fact]
    public void Random_allocations_frees_and_rollbacks_match_a_model_and_leak_nothing()
    {
        const int Seed = 424242;
        var random = new Random(Seed);
        using var db = new TestDatabase(new StorageOptions { Durability = Durability.Normal, PageSize = 4096, WalCheckpointThresholdBytes = 32 * 4096 });
        var model = new Dictionary<uint, long>();
        var owner = new ModelOwnership(model);
        long stamp = 0;

        for (var step = 0; step < 300; step++)
        {
            using (var tx = db.Engine.BeginWrite())
            {
                var staged = new Dictionary<uint, long>(model);
                for (var op = random.Next(1, 40); op > 0; op--)
                {
                    if (staged.Count > 0 && random.Next(5) < 2)
                    {
                        var victim = staged.Keys.ElementAt(random.Next(staged.Count));
                        tx.FreePage(victim);
                        staged.Remove(victim);
                    }
                    else
                    {
                        var page = tx.AllocatePage();
                        Assert.False(staged.ContainsKey(page), $"seed {Seed} step {step}: page {page} handed out while in use");
                        PageData.Stamp(tx, page, ++stamp);
                        staged[page] = stamp;
                    }
                }

                if (random.Next(4) == 0)
                {
                    tx.Rollback();
                }
                else
                {
                    tx.Commit();
                    model.Clear();
                    foreach (var (page, value) in staged)
                    {
                        model[page] = value;
                    }
                }
            }

            if (random.Next(25) == 0)
            {
                db.Reopen();
            }

            var report = db.Engine.Verify(requireEveryPageOwned: true, owner);
            Assert.True(report.IsValid, $"seed {Seed} step {step}: {report}");
            using var read = db.Engine.BeginRead();
            foreach (var (page, value) in model)
            {
                Assert.Equal(value, PageData.Read(read, page));
            }

            Assert.Equal(read.PageCount - 2 - (uint)model.Count, report.FreePageCount);
        }
    }

    private sealed class ModelOwnership(Dictionary<uint, long> model) : IPageOwnershipSource
    {
        public string Name => "model";

        public void ClaimPages(IPageReader snapshot, PageOwnershipCollector collector)
        {
            foreach (var page in model.Keys)
            {
                collector.Claim(page, "model");
            }
        }
    }
}
