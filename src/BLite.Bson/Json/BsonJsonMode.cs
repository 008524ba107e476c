namespace BLite.Bson;

/// <summary>Which Extended JSON v2 form <c>ToJson</c> writes (docs/json.md).</summary>
public enum BsonJsonMode
{
    /// <summary>Plain JSON numbers for Int32, Int64 and finite doubles; readable, types of small integers not preserved.</summary>
    Relaxed,

    /// <summary>Every number wrapped ($numberInt, $numberLong, $numberDouble) so a parse gives back the exact types.</summary>
    Canonical,
}
