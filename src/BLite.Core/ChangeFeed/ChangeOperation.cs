namespace BLite;

/// <summary>What a committed change did to a document.</summary>
public enum ChangeOperation : byte
{
    Insert = 1,
    Update = 2,
    Delete = 3,
}
