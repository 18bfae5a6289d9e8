#!/usr/bin/perl
# Perl's WWW::RobotRules (libwww-perl) as a `robots-automaton compare --batch` adapter.
#
#   robots-automaton compare --cases corpus --batch 'perl examples/adapters/www_robotrules_batch.pl'
#
# Debian: apt-get install libwww-robotrules-perl (libwww-perl depends on it).
# The batch protocol: one JSON request per line on stdin,
#   {"id": 7, "robots_path": "/tmp/…/x.txt" | "robots": "…" | "robots_base64": "…",
#    "agent": "Googlebot", "url": "https://a.com/x"}
# one JSON answer per line on stdout: {"id": 7, "allowed": false} or {"id": 7, "error": "why"}.
# WWW::RobotRules reports no deciding line (compare then checks verdicts only).
# It judges URLs of the robots.txt's own site, so the rules are parsed for the
# URL's scheme, host and port; a path alone is taken on http://example.com.
# Every answer is flushed at once: the harness keeps a window of requests in
# flight and waits for answers.
use strict;
use warnings;
no warnings 'uninitialized';
use JSON::PP;
use MIME::Base64 qw(decode_base64);
use URI;
use WWW::RobotRules;

$| = 1;
my $json = JSON::PP->new->utf8->canonical;
my %bodies;    # robots_path => bytes (kept while the harness keeps the file)
my %rules;     # body key, agent and site => a WWW::RobotRules holding its rules
my $kept = 0;

sub body_of {
    my ($req) = @_;
    if (defined $req->{robots}) {
        my $b = $req->{robots};
        utf8::encode($b);    # the body is the string's UTF-8
        return $b;
    }
    return decode_base64($req->{robots_base64}) if defined $req->{robots_base64};
    my $path = $req->{robots_path};
    return $bodies{$path} if exists $bodies{$path};
    open(my $fh, '<:raw', $path) or die "cannot read $path: $!\n";
    local $/;
    my $b = <$fh>;
    close $fh;
    $b = '' unless defined $b;
    %bodies = () if keys %bodies > 1000;
    $bodies{$path} = $b;
    return $b;
}

sub answer {
    my ($req) = @_;
    my $agent = $req->{agent};
    return { id => $req->{id}, error => 'WWW::RobotRules takes one user agent' } if ref $agent;
    my $uri = URI->new_abs($req->{url}, 'http://example.com/');
    my $scheme = $uri->scheme // '';
    # WWW::RobotRules allows every URL of another scheme than http(s).
    return { id => $req->{id}, allowed => JSON::PP::true } unless $scheme eq 'http' || $scheme eq 'https';
    my $site = $scheme . '://' . $uri->host_port;
    my $body_key = defined $req->{robots_path} ? $req->{robots_path} : (defined $req->{robots} ? $req->{robots} : $req->{robots_base64});
    my $key = join("\0", $body_key, $agent, $site);
    my $r = $rules{$key};
    unless ($r) {
        %rules = () if ++$kept % 5000 == 0;
        $r = WWW::RobotRules->new($agent);
        $r->parse("$site/robots.txt", body_of($req));
        $rules{$key} = $r;
    }
    my $allowed = $r->allowed($uri);
    return { id => $req->{id}, allowed => ($allowed ? JSON::PP::true : JSON::PP::false) };
}

while (my $line = <STDIN>) {
    my $req;
    my $a = eval {
        $req = $json->decode($line);
        answer($req);
    };
    unless ($a) {
        (my $why = $@ || 'no answer') =~ s/\s+$//;
        $a = { id => (ref $req eq 'HASH' ? $req->{id} : undef), error => $why };
    }
    print $json->encode($a), "\n";
}
