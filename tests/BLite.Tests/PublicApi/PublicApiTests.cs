using System.Reflection;
using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core;

namespace BLite.Tests.PublicApi;

/// <summary>
/// Locks the public surface of the shipped assemblies: each is compared with a checked-in
/// listing, so any change to what users can reach is a visible diff in review. To accept a
/// deliberate change, run the tests with BLITE_ACCEPT_PUBLIC_API=1 (see docs/api.md).
/// </summary>
public sealed class PublicApiTests
{
    public static TheoryData<string> Assemblies => new() { "BLite", "BLite.Core", "BLite.Bson" };

    [Theory]
    [MemberData(nameof(Assemblies))]
    public void Public_surface_matches_the_baseline(string assemblyName)
    {
        var assembly = Load(assemblyName);
        var actual = PublicApiListing.Describe(assembly);
        Assert.Contains(" = ", actual);

        var baselinePath = Path.Combine(BaselineDirectory(), assemblyName + ".txt");
        if (Environment.GetEnvironmentVariable("BLITE_ACCEPT_PUBLIC_API") == "1")
        {
            File.WriteAllText(baselinePath, actual);
        }

        Assert.True(File.Exists(baselinePath), $"No baseline at {baselinePath}: run with BLITE_ACCEPT_PUBLIC_API=1 to create it.");
        var expected = File.ReadAllText(baselinePath).ReplaceLineEndings("\n");
        var missing = expected.Split('\n', StringSplitOptions.RemoveEmptyEntries).Except(actual.Split('\n', StringSplitOptions.RemoveEmptyEntries)).ToList();
        var added = actual.Split('\n', StringSplitOptions.RemoveEmptyEntries).Except(expected.Split('\n', StringSplitOptions.RemoveEmptyEntries)).ToList();
        Assert.True(missing.Count == 0 && added.Count == 0,
            $"The public surface of {assemblyName} changed. Removed:\n  {string.Join("\n  ", missing)}\nAdded:\n  {string.Join("\n  ", added)}\n"
            + "If this is intended, rerun with BLITE_ACCEPT_PUBLIC_API=1 and commit the updated baseline.");
    }

    [Fact]
    public void Engine_types_are_not_exported()
    {
        var core = Load("BLite.Core");
        var exported = core.GetExportedTypes().Select(t => t.FullName).ToHashSet();
        Assert.Contains("BLite.BLiteCorruptionException", exported);
        foreach (var engineType in new[] { "BLite.Core.BTrees.BTree", "BLite.Core.BTrees.KeyWriter", "BLite.Core.Storage.OverflowChain", "BLite.Core.Storage.PageIds", "BLite.Core.Storage.Crc32C", "BLite.Core.Storage.StorageEngine" })
        {
            Assert.NotNull(core.GetType(engineType));
            Assert.DoesNotContain(engineType, exported);
        }

        Assert.Null(core.GetType("BLite.Core.Storage.Devices.FaultInjectingDevice"));
    }

    private static Assembly Load(string name) => name switch
    {
        "BLite" => typeof(DocumentDbContext).Assembly,
        "BLite.Core" => typeof(DocumentDatabase).Assembly,
        "BLite.Bson" => typeof(BsonDocument).Assembly,
        _ => throw new ArgumentException($"Unknown assembly {name}.", nameof(name)),
    };

    private static string BaselineDirectory([CallerFilePath] string sourceFile = "") => Path.GetDirectoryName(sourceFile)!;
}
