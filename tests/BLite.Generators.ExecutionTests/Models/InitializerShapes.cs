using BLite.Bson.Mapping;

namespace BLite.Generators.ExecutionTests.Models;

/// <summary>A nested type that counts its constructions, so a test can tell a filled instance from a replaced one.</summary>
public sealed class CountedPlace
{
    [ThreadStatic]
    private static int _constructed;

    public CountedPlace()
    {
        _constructed++;
    }

    /// <summary>Constructions on this thread since the last call.</summary>
    public static int TakeConstructed()
    {
        var count = _constructed;
        _constructed = 0;
        return count;
    }

    public string City { get; set; } = "";
    public string Country { get; set; } = "unknown";
    public List<string> Streets { get; set; } = [];
}

/// <summary>Members whose initializers make new, empty instances: the reader fills them in place.</summary>
[BLiteDocument]
public sealed class FreshInitializers
{
    public int Id { get; set; }
    public List<string> Tags { get; set; } = [];
    public List<CountedPlace> Stops { get; set; } = new();
    public HashSet<int> Lucky { get; set; } = new HashSet<int>();
    public CountedPlace Home { get; set; } = new();
    public CountedPlace Work = new CountedPlace();
    public List<string>? Optional { get; set; } = [];
    public Dictionary<string, int> Counts { get; set; } = [];
}

/// <summary>Initializers that put items or values in, or share one instance: the stored value must replace them.</summary>
[BLiteDocument]
public sealed class PrefilledInitializers
{
    public static readonly List<string> Shared = [];

    public int Id { get; set; }
    public List<string> Defaults { get; set; } = ["default"];
    public HashSet<int> Seeds { get; set; } = new() { 1, 2 };
    public List<string> SharedTags { get; set; } = Shared;
    public CountedPlace Home { get; set; } = new() { City = "Oslo" };
    public List<string> Copied { get; set; } = new List<string>(Shared);
    public Dictionary<string, int> Seeded { get; set; } = new() { ["seed"] = 1 };
}

/// <summary>A constructor body may change what the initializer made, so nothing is filled in place.</summary>
[BLiteDocument]
public sealed class ConstructorTouchedInitializers
{
    public ConstructorTouchedInitializers()
    {
        Tags.Add("from the constructor");
        Home.City = "from the constructor";
    }

    public int Id { get; set; }
    public List<string> Tags { get; set; } = [];
    public CountedPlace Home { get; set; } = new();
}
