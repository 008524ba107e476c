using BLite.Core.BTrees;
using Xunit.Abstractions;

namespace BLite.Core.Tests.BTrees;

/// <summary>
/// Random insert/upsert/delete/get/scan workloads checked against a SortedDictionary model
/// after every batch, with commits and rollbacks between batches.
/// </summary>
public sealed class BTreeModelTests(ITestOutputHelper output)
{
    private const int BatchSize = 500;

    [Theory]
    [InlineData(1, 512, 60_000)]
    [InlineData(2, 4096, 45_000)]
    public void Random_operations_match_a_sorted_dictionary(int seed, int payloadSize, int operations)
    {
        output.WriteLine($"seed {seed}, payload {payloadSize}");
        var pages = new InMemoryPages(payloadSize);
        var tree = BTree.Create(pages);
        pages.Commit();
        var model = new ModelRun(tree, pages, new Random(seed));

        for (var done = 0; done < operations; done += BatchSize)
        {
            model.RunBatch(BatchSize);
            if (model.Random.Next(5) == 0)
            {
                pages.Rollback();
                model.Rollback();
            }
            else
            {
                pages.Commit();
                model.Commit();
            }
            model.AssertTreeEqualsModel($"seed {seed}, after {done + BatchSize} operations");
            if (done % (20 * BatchSize) == 0)
                Assert.Empty(BTreeVerifier.Verify(pages, tree.RootPageId).Problems);
        }

        var verification = BTreeVerifier.Verify(pages, tree.RootPageId);
        Assert.Empty(verification.Problems);
        Assert.Equal(model.Count, verification.EntryCount);
        output.WriteLine($"{model.Count} entries, depth {verification.Depth}, {verification.OwnedPages.Count} pages; {string.Join(", ", model.Operations)}");
        Assert.Equal(pages.LivePages.OrderBy(p => p), verification.OwnedPages.OrderBy(p => p));
        Assert.True(model.Operations.Values.All(count => count > 0), string.Join(", ", model.Operations));
    }
}
