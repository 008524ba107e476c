using BLite.Bson;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Storage;

[Collection(PostgresCollection.Name)]
public sealed class FidelityTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Every_value_shape_reads_back_exactly_after_reopening(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        var probe = Probe();
        using (var context = new ProviderContext(database.Options()))
        {
            context.Probes.Insert(probe);
        }

        using var reopened = new ProviderContext(database.Options());
        var copy = reopened.Probes.FindById(probe.Id);

        Assert.NotNull(copy);
        Assert.Equal(probe.Utc.Ticks, copy.Utc.Ticks);
        Assert.Equal(DateTimeKind.Utc, copy.Utc.Kind);
        Assert.Equal(DateTimeKind.Local, copy.Local.Kind);
        Assert.Equal(DateTimeKind.Unspecified, copy.Unspecified.Kind);
        Assert.Equal(probe.Offset.Offset, copy.Offset.Offset);
        Assert.Equal(probe.Offset.UtcTicks, copy.Offset.UtcTicks);
        Assert.Equal("1.50", copy.Money.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(ulong.MaxValue, copy.Huge);
        Assert.True(double.IsNegative(copy.NegativeZero) && copy.NegativeZero == 0);
        Assert.True(double.IsNaN(copy.NotANumber));
        Assert.IsType<Dog>(copy.Pet);
        Assert.IsType<Cat>(copy.Zoo[1]);
        Assert.Equal(probe.Dollar, copy.Dollar);
        Assert.Equal(probe.Text, copy.Text);
        // The strongest check: the mapper writes the same bytes for the copy as for the original,
        // so every value kept its BSON type, its bits and its place.
        Assert.Equal(MapperBytes.Of(reopened.Probes.Mapper, probe), MapperBytes.Of(reopened.Probes.Mapper, copy));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Extreme_values_read_back_exactly(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var probe = Extremes(Probe());
        probe.Id = "extremes";
        context.Probes.Insert(probe);

        var copy = context.Probes.FindById("extremes");

        Assert.NotNull(copy);
        Assert.Equal(MapperBytes.Of(context.Probes.Mapper, probe), MapperBytes.Of(context.Probes.Mapper, copy));
    }

    /// <summary>The probe with the extreme value of each kind that has one.</summary>
    internal static Probe Extremes(Probe probe)
    {
        probe.Utc = DateTime.MaxValue;
        probe.Unspecified = DateTime.MinValue;
        probe.Offset = new DateTimeOffset(1, 1, 1, 14, 0, 0, TimeSpan.FromHours(14));
        probe.Money = decimal.MaxValue;
        probe.NegativeZeroMoney = -0.000m;
        probe.Big = long.MinValue;
        probe.Small = int.MinValue;
        probe.Tiny = double.Epsilon;
        probe.Large = double.MaxValue;
        probe.NotANumber = double.NegativeInfinity;
        probe.Span = TimeSpan.MinValue;
        probe.Text = "nul\0inside \"quoted\" \\ \u00e9\U0001F600";
        return probe;
    }

    internal static Probe Probe() => new()
    {
        Id = "probe-1",
        Utc = new DateTime(2024, 2, 29, 23, 59, 59, DateTimeKind.Utc).AddTicks(1234567),
        Local = new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Local).AddTicks(1),
        Unspecified = new DateTime(1999, 12, 31, 0, 0, 0, DateTimeKind.Unspecified).AddTicks(9),
        Offset = new DateTimeOffset(2024, 1, 2, 3, 4, 5, TimeSpan.FromMinutes(-210)).AddTicks(7),
        Money = 1.50m,
        NegativeZeroMoney = -0.00m,
        Key = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"),
        Huge = ulong.MaxValue,
        Big = long.MaxValue,
        Small = -7,
        NegativeZero = -0.0,
        NotANumber = double.NaN,
        Infinite = double.PositiveInfinity,
        Tiny = 1.5e-300,
        Large = 1e300,
        Whole = 3.0,
        Single = 0.1f,
        Span = TimeSpan.FromTicks(-123456789),
        Day = new DateOnly(2024, 2, 29),
        Time = new TimeOnly(23, 59, 59, 999).Add(TimeSpan.FromTicks(9)),
        Text = "plain ünïcödé 🚀",
        Bytes = [0, 1, 2, 255],
        Reference = ObjectId.Parse("5f1d7a2b9c3e4f5a6b7c8d9e"),
        Flag = true,
        Dollar = "a field whose name starts with $",
        Counts = new() { ["a"] = 1, ["$b"] = 2, ["c.d"] = 3 },
        Prices = new() { ["x"] = [1.0m, 2.50m, -0.01m] },
        Grid = [[1, 2], [], [3]],
        Pet = new Dog { Name = "Rex", GoodBoy = true },
        Zoo = [new Dog { Name = "Fido" }, new Cat { Name = "Tom", Lives = 9 }],
    };
}
