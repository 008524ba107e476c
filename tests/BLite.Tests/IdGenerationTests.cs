using BLite.Tests.Model;

namespace BLite.Tests;

public sealed class IdGenerationTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void Guid_ids_are_generated_when_empty_and_kept_when_given()
    {
        using var db = new ShopContext(_directory.File());
        var generated = db.GuidItems.Insert(new GuidItem { Name = "a" });
        var given = Guid.NewGuid();

        Assert.NotEqual(Guid.Empty, generated);
        Assert.Equal(given, db.GuidItems.Insert(new GuidItem { Id = given, Name = "b" }));
        Assert.Equal("a", db.GuidItems.FindById(generated)!.Name);
        Assert.Equal("b", db.GuidItems.FindById(given)!.Name);
    }

    [Fact]
    public void Int_and_long_ids_count_up_from_one()
    {
        using var db = new ShopContext(_directory.File());

        Assert.Equal([1, 2, 3], Enumerable.Range(0, 3).Select(_ => db.IntItems.Insert(new IntItem { Name = "x" })));
        Assert.Equal([1L, 2L], Enumerable.Range(0, 2).Select(_ => db.LongItems.Insert(new LongItem { Name = "x" })));
    }

    [Fact]
    public void Generated_int_ids_skip_past_an_explicit_id()
    {
        using var db = new ShopContext(_directory.File());
        db.IntItems.Insert(new IntItem { Name = "a" });
        db.IntItems.Insert(new IntItem { Id = 50, Name = "explicit" });

        Assert.Equal(51, db.IntItems.Insert(new IntItem { Name = "b" }));
    }

    [Fact]
    public void A_committed_sequence_value_is_never_handed_out_again_across_rollback_delete_and_reopen()
    {
        var path = _directory.File();
        var seen = new HashSet<long>();
        using (var db = new ShopContext(path))
        {
            seen.Add(db.LongItems.Insert(new LongItem { Name = "a" }));
            var last = db.LongItems.Insert(new LongItem { Name = "b" });
            seen.Add(last);
            db.LongItems.Delete(last);
            using (db.BeginTransaction())
            {
                db.LongItems.Insert(new LongItem { Name = "rolled back" });
            }

            seen.Add(db.LongItems.Insert(new LongItem { Name = "c" }));
        }

        using (var db = new ShopContext(path))
        {
            Assert.True(seen.Add(db.LongItems.Insert(new LongItem { Name = "d" })));
        }

        Assert.Equal(4, seen.Count);
    }

    [Fact]
    public void ObjectIds_generated_in_a_rolled_back_insert_are_cleared_from_the_object()
    {
        using var db = new ShopContext(_directory.File());
        var first = Orders.Create(1);
        db.Orders.Insert(first);
        var clash = Orders.Create(2);
        clash.Customer.Email = first.Customer.Email;

        Assert.ThrowsAny<Exception>(() => db.Orders.Insert(clash));

        Assert.Equal(default, clash.Id);
    }
}
